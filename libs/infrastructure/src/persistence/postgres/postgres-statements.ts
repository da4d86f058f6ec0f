import type { Pool, PoolClient } from 'pg';
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
  constructor(
    readonly dataSource: DataSource,
    /** The client of a transaction these statements run in (on), else any client of the pool. */
    private readonly client: PoolClient | null = null,
  ) {
    super();
  }

  /** These statements on `client`, in the transaction open on it (PostgresUnitOfWork): a script of writes joins it. */
  on(client: PoolClient): PostgresStatements {
    return new PostgresStatements(this.dataSource, client);
  }

  /** TypeORM's pool; once the data source is closed there is none, and a statement fails as the database unavailable. */
  get pool(): Pool {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool | undefined;
    if (!pool) throw new ConnectionIsNotSetError('postgres');
    return pool;
  }

  prepare<Row extends ObjectLiteral>(name: string, sql: string): PreparedStatement<Row> {
    return this.prepareNumbered<Row>(name, numbered(sql));
  }

  /** A statement already written with `$n` placeholders (PostgreSQL's own SQL). */
  prepareNumbered<Row extends ObjectLiteral>(name: string, text: string): PreparedStatement<Row> {
    const run = async (params: readonly unknown[]) =>
      (await (this.client ?? this.pool).query<Row>({ name: `svc_${name}`, text, values: params as unknown[] })).rows;
    return { first: async (params) => (await run(params))[0], all: run };
  }

  /**
   * `work` in one transaction on one client of the pool (READ COMMITTED: a conditional UPDATE racing
   * another waits on the row lock, then sees the row as the other left it), for the PostgreSQL adapters'
   * hot steps and a unit of work; on a transaction's client (on), in that transaction. A client that
   * cannot even roll back is not handed back.
   */
  async inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    if (this.client) return work(this.client);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      client.release();
      return value;
    } catch (error) {
      await client.query('ROLLBACK').then(
        () => client.release(),
        (failed: Error) => client.release(failed),
      );
      throw error;
    }
  }
}

/** `?` placeholders as PostgreSQL's `$1…$n`. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
