import type { Pool } from 'pg';
import { ConnectionIsNotSetError, type DataSource, type ObjectLiteral } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { type PreparedStatement, SqlStatements } from '../typeorm/sql-statements';

/**
 * PostgreSQL's statements: named prepared statements on TypeORM's own pool
 * (parsed and planned once per connection, then one round trip per call,
 * under the pool's statement timeout). `?` placeholders become `$1…$n`.
 * The one place that reaches into TypeORM's PostgreSQL driver.
 */
export class PostgresStatements extends SqlStatements {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /** TypeORM's pool; once the data source is closed there is none, and a statement fails as the database unavailable. */
  get pool(): Pool {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool | undefined;
    if (!pool) throw new ConnectionIsNotSetError('postgres');
    return pool;
  }

  prepare<Row extends ObjectLiteral>(name: string, sql: string): PreparedStatement<Row> {
    let n = 0;
    return this.prepareNumbered<Row>(
      name,
      sql.replace(/\?/g, () => `$${++n}`),
    );
  }

  /** A statement already written with `$n` placeholders (PostgreSQL's own SQL). */
  prepareNumbered<Row extends ObjectLiteral>(name: string, text: string): PreparedStatement<Row> {
    const run = async (params: readonly unknown[]) =>
      (await this.pool.query<Row>({ name: `svc_${name}`, text, values: params as unknown[] })).rows;
    return { first: async (params) => (await run(params))[0], all: run };
  }
}
