import { type DataSource, type EntityManager, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';

/** A statement prepared once and run many times; parameters bind to its `?` placeholders in order. */
export interface PreparedStatement<Row extends ObjectLiteral = Record<string, unknown>> {
  /** The first row, or undefined. */
  first(params: readonly unknown[]): Promise<Row | undefined>;
  all(params: readonly unknown[]): Promise<Row[]>;
}

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
   * `work` in one of TypeORM's transactions (DataSource.transaction), in its
   * turn (inTurn): committed when it resolves, rolled back whole when it
   * throws. Its statements go through `manager`. A database may run `work`
   * once more, from the start, when it rolled the first attempt back whole
   * (MySQL's deadlock victim), so `work` keeps what it has written to itself
   * until it has returned.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.inTurn(() => this.dataSource.transaction(work));
  }

  /**
   * `query` (read in a transaction) locking the rows it reads for that transaction and passing over rows
   * another transaction has locked (`FOR UPDATE SKIP LOCKED`), so that instances claiming work at once
   * take different rows without waiting on each other.
   */
  claimingRows<Row extends ObjectLiteral>(query: SelectQueryBuilder<Row>): SelectQueryBuilder<Row> {
    return query.setLock('pessimistic_write').setOnLocked('skip_locked');
  }

  /**
   * Runs `work` once this process's other transactions and writes are done,
   * and holds the others until it is. SQLite has one connection per file in
   * a process, where a transaction takes in every statement run while it is
   * open: its writes take turns, so that a transaction rolled back takes no
   * other writer's work with it. A database of many connections runs `work`
   * at once (its transactions are kept apart by the database).
   */
  inTurn<T>(work: () => Promise<T> | T): Promise<T> {
    return Promise.resolve().then(work);
  }
}
