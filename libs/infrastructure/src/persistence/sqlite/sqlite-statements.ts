import type { Database, Statement } from 'better-sqlite3';
import { type DataSource, type EntityManager, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { type PreparedStatement, SqlStatements } from '../typeorm/sql-statements';

/**
 * SQLite's statements: better-sqlite3 statements on TypeORM's own connection,
 * prepared once, run synchronously (no round trip). The one place that
 * reaches into TypeORM's SQLite driver.
 */
export class SqliteStatements extends SqlStatements {
  /**
   * The statements of runWrite and runRead, prepared once per SQL text: a unit of work's statements, and
   * the multi-row inserts of a batch of events, one text per row count (at most BATCH_LIMITS.events of each).
   */
  private readonly statements = new Map<string, Statement>();
  /**
   * The end of the transactions queued so far on each database file, by its path, for every connection
   * of this process (inTurn). A file (not `:memory:`) may be opened twice in one process: by two
   * instances under test, or the CLI's and the service's modules.
   */
  private static readonly turns = new Map<string, Promise<unknown>>();
  /** The end of the transactions queued so far on an in-memory database (its own, one connection). */
  private memoryTurn: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {
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

  /**
   * The process's transactions on the file one after another, in the order they asked (see
   * SqlStatements.inTurn), whichever connection runs them: SQLite has one writer per file at a time,
   * and better-sqlite3 waits for the file's lock synchronously (its busy timeout, during which the
   * event loop stands), so a transaction of this process that waited on another of this process
   * would wait for the whole timeout and fail. Other processes on the file wait for its lock.
   */
  override inTurn<T>(work: () => Promise<T> | T): Promise<T> {
    const database = this.database;
    const file = database.memory ? null : database.name;
    const turns = SqliteStatements.turns;
    const previous = file === null ? this.memoryTurn : (turns.get(file) ?? Promise.resolve());
    const mine = previous.then(work);
    const settled = mine.catch(() => undefined);
    if (file === null) {
      this.memoryTurn = settled;
    } else {
      turns.set(file, settled);
      // the last turn queued on a file forgets it once done, so that the map keeps no file no one writes
      void settled.then(() => turns.get(file) === settled && turns.delete(file));
    }
    return mine;
  }

  /**
   * `work` in one transaction begun IMMEDIATE, in its turn. TypeORM begins SQLite's transactions
   * DEFERRED (and has no option for another kind), and a deferred transaction that reads and then
   * writes fails at once (SQLITE_BUSY_SNAPSHOT: the busy timeout does not wait for it) when another
   * process wrote the file between its first read and its first write. Begun IMMEDIATE, it takes the
   * file's write lock first, waiting up to the busy timeout for another process's. It runs on TypeORM's
   * query runner, `work` with the runner's EntityManager, and is committed when `work` resolves or
   * rolled back whole. TypeORM does not know this transaction is open, so `work` opens none of its own
   * (no `manager.transaction`, no `save`).
   */
  override transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      const runner = this.dataSource.createQueryRunner();
      try {
        await runner.query('BEGIN IMMEDIATE');
        try {
          const value = await work(runner.manager);
          await runner.query('COMMIT');
          return value;
        } catch (error) {
          if (this.database.inTransaction) await runner.query('ROLLBACK');
          throw error;
        }
      } finally {
        await runner.release();
      }
    });
  }

  /** The rows as `query` reads them: a transaction here holds the file's write lock from its start, so no other claims meanwhile. */
  override claimingRows<Row extends ObjectLiteral>(query: SelectQueryBuilder<Row>): SelectQueryBuilder<Row> {
    return query;
  }

  /** One write on the connection as it is (in the transaction open on it, if any): the rows it changed. */
  runWrite(sql: string, params: readonly unknown[]): number {
    return this.statement(sql).run(...params).changes;
  }

  /** One read on the connection as it is (in the transaction open on it, if any), its statement prepared once per SQL text. */
  runRead<Row>(sql: string, params: readonly unknown[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.database.prepare(sql)));
    return statement;
  }
}
