import { Client, type QueryResult } from 'pg';

type QueryCallback = (error: Error | null, result?: QueryResult) => void;

/** A query unanswered past its deadline fails with this (pg's wording for its own `query_timeout`); POSTGRES_FAULTS reads it as the database unavailable. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * pg's `Client` for the service's pool (pg-pool's documented `Client` option), giving each query
 * `deadlineMs` to be answered. Past it the query fails with "Query read timeout" and the client is
 * ended (pg destroys the socket of a client whose query is under way), so a black-holed connection
 * holds no request longer than that and is never handed out again.
 *
 * This replaces pg's own `query_timeout`, and runs every query in pg's callback form (the promise
 * form is made here, outside pg). Both `query_timeout` and pg's promise form set the query's callback
 * to a closure made inside `Client.query`; with that closure, V8 kept finished queries' objects (the
 * rows, their strings and dates, the row description) past the young generation for seconds at a
 * time, and the service paid for them in mark-compacts (docs/PERFORMANCE.md, "PostgreSQL's paced
 * tail"). A callback made here, as pg-pool's own, does not do that.
 */
export function clientAnsweringWithin(deadlineMs: number): typeof Client {
  return class AnsweringClient extends Client {
    // pg's overloads (text or config, values, callback; or a submittable) each return their own type
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: unknown, values?: unknown, callback?: unknown): any {
      // a cursor or a stream (a submittable) runs as pg runs it
      if (typeof (config as { submit?: unknown } | null)?.submit === 'function') return pgQuery.call(this, config, values, callback);
      if (typeof values === 'function') return this.query(config, undefined, values) as unknown;
      if (typeof callback !== 'function') {
        return new Promise<QueryResult>((resolve, reject) => {
          this.query(config, values, (error: Error | null, result: QueryResult) => (error ? reject(error) : resolve(result)));
        });
      }
      const answer = callback as QueryCallback;
      let settled = false;
      const deadline = setTimeout(() => {
        settled = true;
        void this.end();
        answer(new Error(QUERY_READ_TIMEOUT));
      }, deadlineMs);
      return pgQuery.call(this, config, values, (error: Error | null, result?: QueryResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        answer(error, result);
      });
    }
  };
}

/** pg's own `Client.query`, called with the forms above. */
const pgQuery = Client.prototype.query as (this: Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
