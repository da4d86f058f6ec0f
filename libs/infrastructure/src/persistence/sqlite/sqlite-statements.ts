import type { Database, Statement } from 'better-sqlite3';
import { type DataSource, type ObjectLiteral } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { type PreparedStatement, SqlStatements, type WriteScript } from '../typeorm/sql-statements';

/**
 * SQLite's statements: better-sqlite3 statements on TypeORM's own connection,
 * prepared once, run synchronously (no round trip). The one place that
 * reaches into TypeORM's SQLite driver.
 */
export class SqliteStatements extends SqlStatements {
  /**
   * The writes of writeTogether and runWrite, prepared once per SQL text: the scripts' statements, and the
   * multi-row inserts of a batch of events, one text per row count (at most BATCH_LIMITS.events of each).
   */
  private readonly writes = new Map<string, Statement>();
  /** The end of the transactions queued so far (inTurn). */
  private turn: Promise<unknown> = Promise.resolve();

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
   * One synchronous better-sqlite3 transaction, BEGIN IMMEDIATE (the write
   * lock first, so another process on the file waits rather than failing),
   * in its turn: nothing of this process can run between its writes either.
   */
  writeTogether<T>(script: () => WriteScript<T>): Promise<T> {
    const run = this.database.transaction((): T => {
      const writes = script();
      let step = writes.next();
      while (!step.done) step = writes.next(this.write(step.value.sql).run(...step.value.params).changes);
      return step.value;
    });
    return this.inTurn(() => run.immediate());
  }

  /** The process's transactions one after another, in the order they asked (see SqlStatements.inTurn). */
  override inTurn<T>(work: () => Promise<T> | T): Promise<T> {
    const mine = this.turn.then(work);
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  ignoringDuplicates(insertSql: string): string {
    return insertSql.replace(/^INSERT INTO/, 'INSERT OR IGNORE INTO');
  }

  /** One write on the connection as it is (in the transaction open on it, if any): the rows it changed. */
  runWrite(sql: string, params: readonly unknown[]): number {
    return this.write(sql).run(...params).changes;
  }

  private write(sql: string): Statement {
    let statement = this.writes.get(sql);
    if (!statement) this.writes.set(sql, (statement = this.database.prepare(sql)));
    return statement;
  }
}
