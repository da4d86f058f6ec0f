import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabaseConfig, SqliteDatabaseConfig } from '@svc/config';
import { DataSource } from 'typeorm';
import { postgresDataSourceOptions } from '@svc/infrastructure/persistence/postgres/postgres-data-source';
import { sqliteDataSourceOptions } from '@svc/infrastructure/persistence/sqlite/sqlite-data-source';
import { ApiKeyRecord, AuditEntryRecord, ModelRecord, UserRecord } from '@svc/infrastructure/persistence/typeorm/records';
import { TypeOrmAnalyticsEventRepository } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-analytics-event.repository';
import { TypeOrmApiKeyRepository } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-api-key.repository';
import { TypeOrmAuditLog } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-audit-log';
import { TypeOrmKeyContextRepository } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-key-context.repository';
import { TypeOrmModelRepository } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-model.repository';
import { TypeOrmUsageRepository } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-usage.repository';
import { TypeOrmUserRepository } from '@svc/infrastructure/persistence/typeorm/repositories/typeorm-user.repository';
import { uniqueId } from '../factories/domain.factory';
import { TestDatabase, createTestDatabase } from '../harness/test-database';
import { MakePersistence, PersistenceFixture } from './persistence-fixture';

export interface TypeOrmPersistence extends PersistenceFixture {
  readonly dataSource: DataSource;
}

/**
 * The TypeORM adapters over a real database, with the production options and
 * migrations (`dataSourceOptionsFor`). Works for any `DatabaseConfig`; the
 * caller makes sure the database starts empty.
 */
export async function openTypeOrmPersistence(database: SqliteDatabaseConfig | PostgresDatabaseConfig): Promise<TypeOrmPersistence> {
  const dataSource = await new DataSource(database.kind === 'sqlite' ? sqliteDataSourceOptions(database) : postgresDataSourceOptions(database)).initialize();
  return {
    dataSource,
    keys: new TypeOrmApiKeyRepository(dataSource.getRepository(ApiKeyRecord)),
    users: new TypeOrmUserRepository(dataSource.getRepository(UserRecord)),
    usage: new TypeOrmUsageRepository(dataSource),
    audit: new TypeOrmAuditLog(dataSource.getRepository(AuditEntryRecord)),
    contexts: new TypeOrmKeyContextRepository(dataSource),
    events: new TypeOrmAnalyticsEventRepository(dataSource),
    models: new TypeOrmModelRepository(dataSource.getRepository(ModelRecord)),
    dispose: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}

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
  return {
    newPath,
    make: () => openTypeOrmPersistence({ kind: 'sqlite', path: newPath(), busyTimeoutMs: 5000 }),
  };
}

/**
 * The same adapters on a PostgreSQL database of the file's own (the machine's
 * server, created before the file's tests and dropped after), emptied before
 * each test. Registers its own `beforeAll`/`afterAll`; call inside a
 * `describe` that the caller skips when no server answers (serverAvailableSync).
 */
export function postgresPersistence(): { make: MakePersistence } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('', 'postgres');
  });
  afterAll(async () => {
    await database?.drop();
  });
  return {
    make: async () => {
      if (!database) throw new Error('the database exists only while the tests run');
      const store = await openTypeOrmPersistence({ kind: 'postgres', url: database.url, poolSize: 4, statementTimeoutMs: 5000 });
      await store.dataSource.query('TRUNCATE analytics_events, usage_counters, audit_log, models, api_keys, users');
      return store;
    },
  };
}
