import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SqliteDatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { RECORDS } from '../typeorm/records';
import { SQLITE_MIGRATIONS } from './migrations';

/**
 * TypeORM options for SQLite. Migrations always run at start-up;
 * `synchronize` is never used. WAL mode with a busy timeout, so a CLI
 * writing beside the service does not fail requests. The page cache is
 * SQLITE_CACHE_MB (8 MB by default, half of better-sqlite3's 16): each megabyte
 * of it is a megabyte of resident memory, and validate's pages outgrow any such
 * cache from about 10,000 keys on (the stored licenses are most of them), where
 * the OS's page cache answers a miss at about the same cost.
 */
export function sqliteDataSourceOptions(database: SqliteDatabaseConfig): DataSourceOptions {
  if (database.path !== ':memory:') createPrivately(database.path);
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

/**
 * The database file holds every key digest, the audit log and (without SECRETS_KEY) the
 * secrets in plain text: what the service or CLI creates, only its user may read.
 * A missing folder is made 0700 (each one made, the umask may only take away), a missing file
 * 0600; SQLite gives its -wal and -shm files the database file's mode. A folder or file that
 * exists keeps the mode its owner gave it (docs/OPERATIONS.md says how to tighten an old one).
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (existsSync(path)) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    // another process (an instance or the CLI starting beside it) made it first
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
