import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations';
import { RECORDS } from './records';

/**
 * TypeORM options for the configured database. Migrations always run at
 * start-up; `synchronize` is never used. SQLite runs in WAL mode with a busy
 * timeout so a CLI writing beside the service does not fail requests.
 */
export function dataSourceOptionsFor(database: DatabaseConfig): DataSourceOptions {
  if (database.kind === 'sqlite') {
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
  return {
    type: 'postgres',
    url: database.url,
    entities: RECORDS,
    migrations: POSTGRES_MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: database.poolSize,
      statement_timeout: database.statementTimeoutMs,
      query_timeout: database.statementTimeoutMs + 1000,
      connectionTimeoutMillis: Math.min(database.statementTimeoutMs, 5000),
      application_name: 'svc-licensing',
    },
  };
}
