import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SqliteDatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { RECORDS } from '../typeorm/records';
import { SQLITE_MIGRATIONS } from './migrations';

/**
 * TypeORM options for SQLite. Migrations always run at start-up;
 * `synchronize` is never used. WAL mode with a busy timeout, so a CLI
 * writing beside the service does not fail requests.
 */
export function sqliteDataSourceOptions(database: SqliteDatabaseConfig): DataSourceOptions {
  if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
  return {
    type: 'better-sqlite3',
    database: database.path,
    entities: RECORDS,
    migrations: SQLITE_MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    enableWAL: database.path !== ':memory:',
    timeout: database.busyTimeoutMs,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
    },
    logging: false,
  };
}
