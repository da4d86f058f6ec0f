import { type DataSource, type ObjectLiteral } from 'typeorm';

/** A statement prepared once and run many times; parameters bind to its `?` placeholders in order. */
export interface PreparedStatement<Row extends ObjectLiteral = Record<string, unknown>> {
  /** The first row, or undefined. */
  first(params: readonly unknown[]): Promise<Row | undefined>;
  all(params: readonly unknown[]): Promise<Row[]>;
}

/** One write of a transaction: SQL with `?` placeholders, and its parameters (as `prepare`'s). */
export interface SqlWrite {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * The writes of one transaction, written once for every database: each
 * yielded write is run and answers the number of rows it changed (inserted
 * or updated); what the generator returns is the transaction's answer. A
 * script that finds nothing to do returns before its first write.
 */
export type WriteScript<T> = Generator<SqlWrite, T, number>;

/**
 * How the configured database runs the hot path's statements, below
 * TypeORM's query builder (which rebuilds the SQL, escapes aliases and walks
 * the metadata on every call). Each database's module binds its own: a cached
 * better-sqlite3 statement, a named PostgreSQL prepared statement, a mysql2
 * server-side prepared statement. The shared repositories write portable SQL
 * with `?` placeholders and never ask which database runs it. Parameters are
 * values every driver binds as they are: strings, numbers, null.
 */
export abstract class SqlStatements {
  /** TypeORM's data source these statements run on. */
  abstract readonly dataSource: DataSource;

  /** `name` is unique per SQL text (PostgreSQL caches the plan under it on each connection). */
  abstract prepare<Row extends ObjectLiteral = Record<string, unknown>>(name: string, sql: string): PreparedStatement<Row>;

  /**
   * Runs a fresh `script()` in one transaction, its writes on one connection
   * with nothing else between them: committed when the script returns, rolled
   * back whole when a write fails (which rejects with the database's error).
   * A database may run the script once more, from the start, when it rolled
   * the first attempt back whole (MySQL's deadlock victim).
   */
  abstract writeTogether<T>(script: () => WriteScript<T>): Promise<T>;

  /**
   * Runs `work` once this process's other transactions are done, and holds
   * the others until it is. SQLite has one connection per process, where a
   * transaction takes in every statement run while it is open: its
   * transactions take turns, so that one rolled back takes no other
   * writer's work with it. A database of many connections runs `work` at
   * once (its transactions are kept apart by the database).
   */
  inTurn<T>(work: () => Promise<T> | T): Promise<T> {
    return Promise.resolve().then(work);
  }

  /**
   * An `INSERT INTO … VALUES …` that writes nothing (and changes 0 rows)
   * when a row of the same primary key exists, instead of failing: a record
   * made at most once whoever makes it (a webhook notice).
   */
  abstract ignoringDuplicates(insertSql: string): string;
}
