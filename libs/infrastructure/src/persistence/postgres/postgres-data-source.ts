import { type PostgresDatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { clientAnsweringWithin } from './answering-client';
import { RECORDS } from '../typeorm/records';
import { POSTGRES_MIGRATIONS } from './migrations';

/**
 * TypeORM options for PostgreSQL: migrations at start-up, a bounded pool, statement and connect timeouts,
 * and each query's answer awaited at most a second past the statement timeout (`clientAnsweringWithin`,
 * in place of pg's `query_timeout`).
 *
 * `min: poolSize`: a connection once opened stays open (pg-pool closes idle ones only above `min`), as
 * MySQL's pool keeps its idle ones up to the pool size. With pg-pool's default (closed after 10 s idle)
 * the first requests after a quiet spell waited for new server processes to start and for their first
 * statements to load the catalog of the key read's tables (docs/PERFORMANCE.md, "PostgreSQL's paced tail").
 */
export function postgresDataSourceOptions(database: PostgresDatabaseConfig): DataSourceOptions {
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
      min: database.poolSize,
      statement_timeout: database.statementTimeoutMs,
      Client: clientAnsweringWithin(database.statementTimeoutMs + 1000),
      connectionTimeoutMillis: Math.min(database.statementTimeoutMs, 5000),
      application_name: 'svc-licensing',
    },
  };
}
