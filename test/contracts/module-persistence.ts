import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { KeyDirectory, UnitOfWork } from '@svc/application';
import {
  AnalyticsEventRepository,
  ApiKeyRepository,
  AuditLog,
  DeviceRepository,
  GeneratedSecretRepository,
  KeyContextRepository,
  LicenseSigningKeyRepository,
  ModelRepository,
  OperatorRepository,
  StoredLicenseRepository,
  UsageRepository,
  UserRepository,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
  WebhookOutbox,
} from '@svc/domain';
import { SecretsCipher } from '@svc/infrastructure/crypto/secrets-cipher';
import { MySqlPersistenceModule } from '@svc/infrastructure/persistence/mysql/mysql-persistence.module';
import { PostgresPersistenceModule } from '@svc/infrastructure/persistence/postgres/postgres-persistence.module';
import { SqlitePersistenceModule } from '@svc/infrastructure/persistence/sqlite/sqlite-persistence.module';
import { UsageCounterRecord } from '@svc/infrastructure/persistence/typeorm/records';
import { DataSource } from 'typeorm';
import { uniqueId } from '../factories/domain.factory';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';
import { type MakePersistence, type PersistenceFixture, type WebhookPorts } from './persistence-fixture';

/** The contracts run with the secrets the adapters keep encrypted at rest, as SECRETS_KEY makes them. */
const SECRETS = SecretsCipher.of({ key: randomBytes(32).toString('base64'), newKey: null });

export interface SqlPersistence extends PersistenceFixture {
  readonly dataSource: DataSource;
}

/**
 * The ports exactly as the service binds them: a database's persistence
 * module (its production options, migrations and adapters) in a Nest
 * context of its own. The caller makes sure the database starts empty.
 */
export async function openPersistence(module: DynamicModule): Promise<SqlPersistence> {
  const ports = await openPorts(module, async (licenseId, period, used) => {
    await ports.context.get(DataSource).getRepository(UsageCounterRecord).insert({ licenseId, period, used });
  });
  return { ...ports, dataSource: ports.context.get(DataSource) };
}

/** Any persistence module's ports, as the service gets them (the in-memory module's too). */
export async function openPorts(
  module: DynamicModule,
  seedUsage: PersistenceFixture['seedUsage'],
): Promise<PersistenceFixture & { readonly context: INestApplicationContext }> {
  const context = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  return {
    context,
    seedUsage,
    keys: context.get(ApiKeyRepository),
    users: context.get(UserRepository),
    usage: context.get(UsageRepository),
    audit: context.get(AuditLog),
    contexts: context.get(KeyContextRepository),
    events: context.get(AnalyticsEventRepository),
    models: context.get(ModelRepository),
    directory: context.get(KeyDirectory),
    operators: context.get(OperatorRepository),
    secrets: context.get(GeneratedSecretRepository),
    signingKeys: context.get(LicenseSigningKeyRepository),
    devices: context.get(DeviceRepository),
    storedLicenses: context.get(StoredLicenseRepository),
    unitOfWork: context.get(UnitOfWork),
    webhooks: webhookPorts(context),
    dispose: () => context.close(),
  };
}

/** The webhook ports, when the module binds them (the in-memory module binds none). */
function webhookPorts(context: INestApplicationContext): WebhookPorts | null {
  const endpoints = optional(context, WebhookEndpointRepository);
  const outbox = optional(context, WebhookOutbox);
  const deliveries = optional(context, WebhookDeliveryQueue);
  const storeSecret = async (endpointId: string, stored: string): Promise<string> => {
    const dataSource = context.get(DataSource);
    const before = await dataSource
      .createQueryBuilder()
      .select('e.secret', 'secret')
      .from('webhook_endpoints', 'e')
      .where('e.id = :endpointId', { endpointId })
      .getRawOne<{ secret: string }>();
    await dataSource
      .createQueryBuilder()
      .update('webhook_endpoints')
      .set({ secret: stored })
      .where('id = :endpointId', { endpointId })
      .execute();
    return before?.secret ?? '';
  };
  return endpoints && outbox && deliveries ? { endpoints, outbox, deliveries, storeSecret } : null;
}

/** A port the module may not bind. */
function optional<T>(context: INestApplicationContext, port: abstract new (...args: never[]) => T): T | null {
  try {
    return context.get<T>(port, { strict: false });
  } catch {
    return null;
  }
}

/** The SQLite module on a file (created with its folder when missing). */
export const openSqlitePersistence = (path: string): Promise<SqlPersistence> =>
  openPersistence(SqlitePersistenceModule.forRoot({ kind: 'sqlite', path, busyTimeoutMs: 5000, cacheMb: 8 }, SECRETS));

/**
 * A fresh SQLite file per test, in a temporary folder removed after the file's
 * tests. Registers its own `beforeAll`/`afterAll`; call inside a `describe`.
 */
export function sqliteFilePersistence(): { make: MakePersistence; newPath: () => string } {
  let folder: string | undefined;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-contract-test-'));
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  const newPath = () => {
    if (!folder) throw new Error('the temporary folder exists only while the tests run');
    return join(folder, `${uniqueId('db')}.sqlite`);
  };
  return { newPath, make: () => openSqlitePersistence(newPath()) };
}

/** Every table, children first: emptied between tests on a server database. */
const TABLES = [
  'license_tokens',
  'devices',
  'license_device_limits',
  'webhook_deliveries',
  'webhook_events',
  'webhook_endpoints',
  'analytics_events',
  'usage_counters',
  'audit_log',
  'models',
  'api_keys',
  'users',
  'operators',
  'generated_secrets',
  'license_signing_keys',
];

/**
 * A database server's module on a database of the file's own (the machine's
 * server, created before the file's tests and dropped after), emptied before
 * each test. `open(url)` makes another module on the same database, for the
 * tests of several instances. Registers its own `beforeAll`/`afterAll`; call
 * inside a `describe` that the caller skips when no server answers
 * (serverAvailableSync).
 */
function serverPersistence(
  kind: 'postgres' | 'mysql',
  moduleFor: (url: string) => DynamicModule,
  empty: (dataSource: DataSource) => Promise<void>,
): { make: MakePersistence; open: () => Promise<SqlPersistence> } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('', kind);
  });
  afterAll(async () => {
    await database?.drop();
  });
  const open = () => {
    if (!database) throw new Error('the database exists only while the tests run');
    return openPersistence(moduleFor(database.url));
  };
  return {
    open,
    make: async () => {
      const store = await open();
      await empty(store.dataSource);
      return store;
    },
  };
}

const server = { poolSize: 4, statementTimeoutMs: 5000 };

export function postgresPersistence(): { make: MakePersistence; open: () => Promise<SqlPersistence> } {
  return serverPersistence(
    'postgres',
    (url) => PostgresPersistenceModule.forRoot({ kind: 'postgres', url, ...server }, SECRETS),
    (dataSource) => dataSource.query(`TRUNCATE ${TABLES.join(', ')}`),
  );
}

export function mysqlPersistence(): { make: MakePersistence; open: () => Promise<SqlPersistence> } {
  return serverPersistence(
    'mysql',
    (url) => MySqlPersistenceModule.forRoot({ kind: 'mysql', url, ...server }, SECRETS),
    async (dataSource) => {
      // TRUNCATE is refused on a table other tables reference; DELETE children first is not
      for (const table of TABLES) await dataSource.query(`DELETE FROM ${table}`);
    },
  );
}
