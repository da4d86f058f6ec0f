import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SqliteDatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { RECORDS } from '../typeorm/records';
import { SQLITE_MIGRATIONS } from './migrations';

/**
 * TypeORM options for SQLite. Migrations always run at start-up;
 * `synchronize` is never used. WAL mode with a busy timeout, so a CLI
 * writing beside the service does not fail requests. The page cache is
 * SQLITE_CACHE_MB (8 MB by default, half of better-sqlite3's 16): it holds
 * validate's pages at 10,000 keys (about 5 MB), and at a million keys, where
 * no cache holds the key rows, each megabyte of it is a megabyte of resident
 * memory (docs/PERFORMANCE.md, issue 25).
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
      db.pragma(`cache_size = ${-database.cacheMb * 1000}`);
    },
    logging: false,
  };
}
