import { type PostgresDatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { clientAnsweringWithin } from './answering-client';
import { RECORDS } from '../typeorm/records';
import { POSTGRES_MIGRATIONS } from './migrations';

/**
 * TypeORM options for PostgreSQL: migrations at start-up, a bounded pool, statement and connect timeouts,
 * and each query's answer awaited at most a second past the statement timeout (`clientAnsweringWithin`,
 * in place of pg's `query_timeout`).
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
      statement_timeout: database.statementTimeoutMs,
      Client: clientAnsweringWithin(database.statementTimeoutMs + 1000),
      connectionTimeoutMillis: Math.min(database.statementTimeoutMs, 5000),
      application_name: 'svc-licensing',
    },
  };
}
