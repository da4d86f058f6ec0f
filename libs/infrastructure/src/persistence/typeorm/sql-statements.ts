import { type ObjectLiteral } from 'typeorm';

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
  /** `name` is unique per SQL text (PostgreSQL caches the plan under it on each connection). */
  abstract prepare<Row extends ObjectLiteral = Record<string, unknown>>(name: string, sql: string): PreparedStatement<Row>;
}
