import { type MySqlDatabaseConfig } from '@svc/config';
import { AdvancedConsoleLogger, type DataSourceOptions } from 'typeorm';
import { RECORDS } from '../typeorm/records';
import { MYSQL_MIGRATIONS } from './migrations';

/**
 * TypeORM options for MySQL 8 / MariaDB 10.11 through mysql2:
 *
 * - `connectorPackage: 'mysql2'`: TypeORM would otherwise prefer the `mysql` package if one were installed.
 * - migrations at start-up (`migrationsRun`), never `synchronize`. MySQL commits each DDL statement
 *   itself, so `migrationsTransactionMode: 'each'` only brackets the bookkeeping row; a migration
 *   failing halfway is not rolled back.
 * - `timezone: 'Z'`: mysql2 writes a Date as its UTC wall time and reads DATETIME(3) back as UTC,
 *   milliseconds kept, whatever the server's or the session's time zone (DATETIME is not converted
 *   by the server; only NOW() and TIMESTAMP would be, and neither is used).
 * - `charset: 'utf8mb4_bin'`: the connection's collation (mysql2 takes a collation name here and
 *   sends its id in the handshake), so literals and parameters are utf8mb4 compared case-sensitively,
 *   and compared against the tables' own binary no-pad columns (whose collation wins).
 * - `supportBigNumbers` + `bigNumberStrings`: BIGINT columns (counters, limits, sizes) arrive as
 *   strings, never as rounded numbers; the mappers convert. (COUNT/SUM results are strings too.)
 * - `connectTimeout`: a connection attempt fails within min(statement timeout, 5 s).
 * - `enableQueryTimeout` + `maxQueryExecutionTime`: each TypeORM query fails after the statement
 *   timeout (mysql2's client-side `timeout`, error code PROTOCOL_SEQUENCE_TIMEOUT). The server is not
 *   told to stop the statement, and the connection stays busy until it ends (mysql2 drops the late
 *   answer); mysql2 has no session-variable hook, so a server-side limit is the operator's (MariaDB's
 *   max_statement_time, MySQL's max_execution_time, for the service's user).
 * - `logger`: TypeORM's console logger as `logging: false` would have it, except that the queries
 *   slower than `maxQueryExecutionTime`, which TypeORM prints whatever `logging` says (with their
 *   parameters), are not printed: they fail with the timeout error, which the service reports.
 * - `poolSize` (TypeORM passes it as mysql2's `connectionLimit`): at most that many connections.
 *   `extra.waitForConnections` + `extra.queueLimit: 0`: a request for a connection when all are busy
 *   waits in an unbounded queue (mysql2's pool has no acquire timeout; the statement timeout bounds
 *   the work once connected). `extra.maxIdle`/`idleTimeout`: idle connections beyond the pool size
 *   are closed after 60 s. `extra.enableKeepAlive`: TCP keep-alive, so a silently dropped
 *   connection is noticed.
 * - No `typeCast`: a typeCast function makes mysql2 wrap every field of every row in an object of
 *   closures (a sixth of the service's CPU on the models list). Reading DATETIME exactly for every
 *   year is MySqlStatements' per-statement time zone instead (see there).
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
    logger: new WithoutSlowQueries(false),
    timezone: 'Z',
    charset: 'utf8mb4_bin',
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: Math.min(database.statementTimeoutMs, 5000),
    enableQueryTimeout: true,
    maxQueryExecutionTime: database.statementTimeoutMs,
    poolSize: database.poolSize,
    extra: {
      waitForConnections: true,
      queueLimit: 0,
      maxIdle: database.poolSize,
      idleTimeout: 60_000,
      enableKeepAlive: true,
    },
  };
}

/** TypeORM's default logger without its slow-query lines (see `logger` above). */
class WithoutSlowQueries extends AdvancedConsoleLogger {
  override logQuerySlow(): void {}
}
