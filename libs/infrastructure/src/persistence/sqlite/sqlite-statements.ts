import type { Database, Statement } from 'better-sqlite3';
import { type DataSource, type ObjectLiteral } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { type PreparedStatement, SqlStatements } from '../typeorm/sql-statements';

/**
 * SQLite's statements: better-sqlite3 statements on TypeORM's own connection,
 * prepared once, run synchronously (no round trip). The one place that
 * reaches into TypeORM's SQLite driver.
 */
export class SqliteStatements extends SqlStatements {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /** The open better-sqlite3 database, for the SQLite adapters' transactions. */
  get database(): Database {
    return (this.dataSource.driver as BetterSqlite3Driver).databaseConnection as Database;
  }

  prepare<Row extends ObjectLiteral>(_name: string, sql: string): PreparedStatement<Row> {
    let statement: Statement | undefined;
    const prepared = () => (statement ??= this.database.prepare(sql));
    return {
      first: async (params) => prepared().get(...params) as Row | undefined,
      all: async (params) => prepared().all(...params) as Row[],
    };
  }
}
