import { MySqlDatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import { RECORDS } from '../typeorm/records';
import { MYSQL_MIGRATIONS } from './migrations';

/**
 * TypeORM options for MySQL 8 / MariaDB 10.11 through mysql2: migrations at
 * start-up, a bounded pool, times in UTC (the session and the driver agree),
 * big integers as strings (the mappers convert), strict SQL mode.
 */
export function mysqlDataSourceOptions(database: MySqlDatabaseConfig): DataSourceOptions {
  return {
    type: 'mysql',
    connectorPackage: 'mysql2',
    url: database.url,
    entities: RECORDS,
    migrations: MYSQL_MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    timezone: 'Z',
    charset: 'utf8mb4_bin',
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: Math.min(database.statementTimeoutMs, 5000),
    poolSize: database.poolSize,
    extra: {
      connectionLimit: database.poolSize,
      // the pool hands out a connection or fails within the statement timeout, never waits without end
      queueLimit: 0,
      enableKeepAlive: true,
    },
  };
}
