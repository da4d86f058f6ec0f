import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IssueApiKey, IssueApiKeyInput, IssuedKeyView, issuedKeyViewOf } from '@svc/application';
import { AppConfig, loadConfig } from '@svc/config';
import { Clock } from '@svc/domain';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { CapturingLogger } from './capturing-logger';
import { HttpAnswer, HttpOptions, request } from './http';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestAppOptions {
  /** Extra environment, as an operator would set it. */
  readonly env?: Record<string, string>;
  readonly clock?: Clock;
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
  ) {}

  static async start(options: TestAppOptions = {}): Promise<TestApp> {
    const folder = mkdtempSync(join(tmpdir(), 'svc-test-'));
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      ...options.env,
    });
    const logger = new CapturingLogger();
    const app = await createApiApp(config, { clock: options.clock, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new TestApp(app, config, `http://127.0.0.1:${port}`, logger, folder);
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

  /** Issues a key through the domain's own issuance (the use case), returning the plaintext once. */
  async issueKey(input: Partial<IssueApiKeyInput> = {}): Promise<IssuedKeyView> {
    const issued = await this.app.get(IssueApiKey).execute({
      email: 'ada@example.org',
      name: 'Ada Lovelace',
      organization: 'Analytical Engines Ltd',
      licenseType: 'research',
      ...input,
    });
    return issuedKeyViewOf(issued);
  }

  async close(): Promise<void> {
    await this.app.close();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
