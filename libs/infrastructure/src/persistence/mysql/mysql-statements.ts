import type { Pool } from 'mysql2';
import type { Pool as PromisePool, PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { type DataSource, type EntityManager, type ObjectLiteral, QueryFailedError } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { type PreparedStatement, SqlStatements } from '../typeorm/sql-statements';

/**
 * The time zone the prepared statements read DATETIME in: UTC, spelled so
 * that mysql2 builds each Date from the ISO text of the value. With `Z` it
 * calls Date.UTC, whose two-digit-year rule read 0001-01-01 back as 1901.
 * Parameters are still written with the pool's own `Z`.
 */
const READ_DATETIME_AS = '+00:00';

/** DATETIME(3) text in UTC (the session's zone): exact to the millisecond whatever the driver's date handling. */
export const mysqlInstant = (at: Date): string => at.toISOString().slice(0, 23).replace('T', ' ');

/** ER_LOCK_DEADLOCK. */
const DEADLOCK_VICTIM = 1213;
/**
 * How many times a transaction runs when InnoDB keeps choosing it as a
 * deadlock victim (MySQL's manual: "always be prepared to re-issue a
 * transaction if it fails due to deadlock"). Sends of one idempotency key
 * racing on several instances wait on its row, and InnoDB may pick one of
 * them more than once.
 */
const DEADLOCK_ATTEMPTS = 4;

/** What a statement run on one connection of the pool answers: rows, or the write's header. */
export interface MySqlSession {
  rows<Row extends ObjectLiteral>(sql: string, params: readonly unknown[]): Promise<Row[]>;
  write(sql: string, params: readonly unknown[]): Promise<ResultSetHeader>;
}

/**
 * MySQL / MariaDB's statements: mysql2 server-side prepared statements
 * (`execute`, prepared once per pooled connection and cached by mysql2) on
 * TypeORM's own pool, each bounded by the statement timeout (mysql2 destroys
 * a connection whose statement runs past it, and the call fails as the
 * database unavailable). The one place that reaches into TypeORM's MySQL driver.
 */
export class MySqlStatements extends SqlStatements {
  private promisePool?: PromisePool;
  private poolSession?: MySqlSession;

  constructor(
    readonly dataSource: DataSource,
    private readonly statementTimeoutMs: number,
  ) {
    super();
  }

  private get pool(): PromisePool {
    this.promisePool ??= ((this.dataSource.driver as MysqlDriver).pool as Pool).promise();
    return this.promisePool;
  }

  prepare<Row extends ObjectLiteral>(_name: string, sql: string): PreparedStatement<Row> {
    const all = (params: readonly unknown[]) => this.session().rows<Row>(sql, params);
    return { first: async (params) => (await all(params))[0], all };
  }

  /** Statements outside a transaction (autocommit), each on whichever pooled connection is free. */
  session(): MySqlSession {
    this.poolSession ??= this.sessionOn(this.pool);
    return this.poolSession;
  }

  /**
   * `work` in one transaction on one pooled connection: committed when it
   * resolves, rolled back when it throws or answers `rollback`. A connection
   * that cannot even roll back is destroyed rather than handed back. A
   * transaction InnoDB chose as a deadlock victim (rolled back whole, nothing
   * kept) runs again, up to DEADLOCK_ATTEMPTS times in all, before the error counts.
   */
  async sessionTransaction<T>(work: (session: MySqlSession) => Promise<{ value: T; rollback?: boolean }>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactionOnce(work);
      } catch (error) {
        if ((error as { errno?: unknown }).errno !== DEADLOCK_VICTIM || attempt === DEADLOCK_ATTEMPTS) throw error;
      }
    }
  }

  /** TypeORM's transaction (SqlStatements.transaction), run again while InnoDB chooses it as a deadlock victim (as `sessionTransaction`). */
  override async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.transaction(work);
      } catch (error) {
        const victim = error instanceof QueryFailedError && (error.driverError as { errno?: unknown }).errno === DEADLOCK_VICTIM;
        if (!victim || attempt === DEADLOCK_ATTEMPTS) throw error;
      }
    }
  }

  private async transactionOnce<T>(work: (session: MySqlSession) => Promise<{ value: T; rollback?: boolean }>): Promise<T> {
    const connection = await this.pool.getConnection();
    try {
      await connection.beginTransaction();
      const { value, rollback } = await work(this.sessionOn(connection));
      await (rollback ? connection.rollback() : connection.commit());
      connection.release();
      return value;
    } catch (error) {
      await connection.rollback().then(
        () => connection.release(),
        () => connection.destroy(),
      );
      throw error;
    }
  }

  private sessionOn(runner: PromisePool | PoolConnection): MySqlSession {
    const timeout = this.statementTimeoutMs;
    return {
      rows: async <Row extends ObjectLiteral>(sql: string, params: readonly unknown[]) =>
        (await runner.execute({ sql, values: params as unknown[], timeout, timezone: READ_DATETIME_AS }))[0] as Row[],
      write: async (sql, params) =>
        (await runner.execute({ sql, values: params as unknown[], timeout, timezone: READ_DATETIME_AS }))[0] as ResultSetHeader,
    };
  }
}
