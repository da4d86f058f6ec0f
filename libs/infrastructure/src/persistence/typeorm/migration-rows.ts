import { type QueryRunner } from 'typeorm';

/**
 * The rows of a migration's SELECT. TypeORM's `QueryRunner.query` answers
 * `any`; the caller names the columns it selected, as `Row`.
 */
export function selectedRows<Row>(q: QueryRunner, sql: string, parameters?: unknown[]): Promise<Row[]> {
  return q.query(sql, parameters) as Promise<Row[]>;
}
