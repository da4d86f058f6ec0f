import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModuleRef } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IssueApiKey, type IssueApiKeyInput } from '@svc/application';
import { type AppConfig, type DatabaseKind, loadConfig } from '@svc/config';
import { type Clock } from '@svc/domain';
import { type IssuedKeyResponse, issuedKeyViewOf } from '@svc/presentation';
import { type ApiFeatures } from '../../apps/api/src/api.module';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { CapturingLogger } from './capturing-logger';
import { type HttpAnswer, type HttpOptions, request } from './http';
import { type TestDatabase, createTestDatabase } from './test-database';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/**
 * Tests of other behaviour send many requests from 127.0.0.1 within a minute;
 * they run with limits raised by configuration (as an operator could), and the
 * rate-limit tests set the SPEC's values or their own.
 */
export const GENEROUS_LIMITS: Record<string, string> = {
  RATE_LIMIT_VALIDATE_PER_MINUTE: '1000000',
  RATE_LIMIT_REFRESH_PER_MINUTE: '1000000',
  RATE_LIMIT_REVOKE_PER_MINUTE: '1000000',
  RATE_LIMIT_ROTATE_PER_MINUTE: '1000000',
  RATE_LIMIT_DEVICES_PER_MINUTE: '1000000',
  RATE_LIMIT_INSTALLER_PER_MINUTE: '1000000',
  RATE_LIMIT_MODELS_PER_MINUTE: '1000000',
  RATE_LIMIT_ANALYTICS_PER_MINUTE: '1000000',
  RATE_LIMIT_ANALYTICS_BATCH_PER_MINUTE: '1000000',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
};

export interface TestAppOptions {
  /** Extra environment, as an operator would set it. */
  readonly env?: Record<string, string>;
  readonly clock?: Clock;
  /** Feature modules to mount beside the service's own (as docs/EXTENDING.md adds one). */
  readonly features?: ApiFeatures;
  /** Start on an empty database that the service migrates itself (by default it starts on one copied, migrated, from the run's template). */
  readonly emptyDatabase?: boolean;
}

/**
 * The whole service, built by the same `createApiApp` as `main.ts`, on a new
 * SQLite file in a temporary folder, listening on 127.0.0.1 (real HTTP).
 */
export class TestApp {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
    readonly baseUrl: string,
    readonly logger: CapturingLogger,
    readonly folder: string,
    private readonly database: TestDatabase | null,
  ) {}

  private issuance?: Promise<IssueApiKey>;

  static async start(options: TestAppOptions = {}): Promise<TestApp> {
    const folder = mkdtempSync(join(tmpdir(), 'svc-test-'));
    const database = options.env?.DATABASE_URL ? null : await createTestDatabase(folder, undefined, { empty: options.emptyDatabase });
    const config = loadConfig({
      DATABASE_URL: database?.url ?? '',
      MODEL_STORE_DIR: join(folder, 'models'),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      ...GENEROUS_LIMITS,
      ...options.env,
    });
    const logger = new CapturingLogger();
    let app: NestFastifyApplication | undefined;
    try {
      app = await createApiApp(config, { clock: options.clock, logDestination: logger, features: options.features });
      await app.listen({ port: 0, host: '127.0.0.1' });
    } catch (error) {
      await app?.close().catch(() => undefined);
      await database?.drop().catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new TestApp(app, config, `http://127.0.0.1:${port}`, logger, folder, database);
  }

  /** The DATABASE_URL this app runs on, to start another instance on the same database. */
  get databaseUrl(): string {
    return this.config.database.kind === 'sqlite' ? `sqlite:${this.config.database.path}` : this.config.database.url;
  }

  get databaseKind(): DatabaseKind {
    return this.config.database.kind;
  }

  /** Everything the database stores, as text (SQLite file bytes, or every PostgreSQL or MySQL row). */
  async databaseContents(): Promise<string> {
    if (!this.database) throw new Error('databaseContents() needs a database the TestApp created');
    return this.database.contents();
  }

  get databasePath(): string {
    return this.config.database.kind === 'sqlite' ? this.config.database.path : '';
  }

  request(method: string, path: string, options?: HttpOptions): Promise<HttpAnswer> {
    return request(this.baseUrl, method, path, options);
  }

  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<HttpAnswer> {
    return this.request('POST', path, json === undefined ? { headers } : { json, headers });
  }

  get(path: string, headers?: Record<string, string>): Promise<HttpAnswer> {
    return this.request('GET', path, { headers });
  }

  admin(method: string, path: string, json?: unknown): Promise<HttpAnswer> {
    return this.request(method, path, { json, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  }

  /**
   * Issues a key through the domain's own issuance (the use case, built on the
   * app's adapters whether or not the admin API is mounted), returning the plaintext once.
   */
  async issueKey(input: Partial<IssueApiKeyInput> = {}): Promise<IssuedKeyResponse> {
    this.issuance ??= this.app.get(ModuleRef).create(IssueApiKey);
    const issued = await (
      await this.issuance
    ).execute({
      email: 'ada@example.org',
      name: 'Ada Lovelace',
      organization: 'Analytical Engines Ltd',
      licenseType: 'research',
      actor: { type: 'system' },
      ...input,
    });
    return issuedKeyViewOf(issued);
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.database?.drop();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
