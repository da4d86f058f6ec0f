import { Pool, type QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { serverAvailableSync } from '../../../../../test/harness/services';
import { TEST_POSTGRES_ADMIN_URL } from '../../../../../test/harness/test-servers';
import { isUnavailable } from '../driver-faults';
import { QUERY_READ_TIMEOUT, clientAnsweringWithin } from './answering-client';
import { postgresDataSourceOptions } from './postgres-data-source';
import { POSTGRES_FAULTS } from './postgres-faults';

// On the real server's admin database: these queries read nothing and write nothing.
(serverAvailableSync(5432, 'PostgreSQL') ? describe : describe.skip)('clientAnsweringWithin on PostgreSQL', () => {
  const pools: Pool[] = [];
  const poolAnsweringWithin = (deadlineMs: number): Pool => {
    const pool = new Pool({ connectionString: TEST_POSTGRES_ADMIN_URL, max: 2, Client: clientAnsweringWithin(deadlineMs) });
    pools.push(pool);
    return pool;
  };
  afterAll(() => Promise.all(pools.map((pool) => pool.end())));

  it("answers in each of pg's forms within the deadline: promise, callback, a named prepared statement through the pool", async () => {
    const pool = poolAnsweringWithin(2000);
    const client = await pool.connect();
    try {
      expect((await client.query('SELECT $1::int AS n', [1])).rows).toEqual([{ n: 1 }]);
      const viaCallback = await new Promise<QueryResult>((resolve, reject) =>
        client.query('SELECT 2 AS n', (error: Error | null, result: QueryResult) => (error ? reject(error) : resolve(result))),
      );
      expect(viaCallback.rows).toEqual([{ n: 2 }]);
    } finally {
      client.release();
    }
    for (const n of [3, 4]) {
      const { rows } = await pool.query({ name: 'answering_client_spec', text: 'SELECT $1::int AS n', values: [n] });
      expect(rows).toEqual([{ n }]);
    }
  });

  it('fails a query unanswered past the deadline at the deadline, once, ends its client, and the pool answers on a new one', async () => {
    const pool = poolAnsweringWithin(300);
    const client = await pool.connect();
    const answers: Array<Error | null> = [];
    const started = Date.now();
    const error = await new Promise<Error | null>((resolve) =>
      client.query('SELECT pg_sleep(2)', (failure: Error | null) => {
        answers.push(failure);
        resolve(failure);
      }),
    );
    const waited = Date.now() - started;
    expect(error?.message).toBe(QUERY_READ_TIMEOUT);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1500);
    expect(isUnavailable(POSTGRES_FAULTS, error)).toBe(true);
    // the client is ended: nothing more runs on it, and the late answer never reaches the caller
    await expect(client.query('SELECT 1')).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answers).toHaveLength(1);
    client.release();
    expect((await pool.query('SELECT 5 AS n')).rows).toEqual([{ n: 5 }]);
    expect(pool.totalCount).toBe(1);
  });

  it("is the client of the service's TypeORM pool: a second past the statement timeout, then the database unavailable", async () => {
    const dataSource = new DataSource({
      ...postgresDataSourceOptions({ kind: 'postgres', url: TEST_POSTGRES_ADMIN_URL, poolSize: 2, statementTimeoutMs: 200 }),
      migrationsRun: false,
    });
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      // with the server's own limit lifted for this session, only the client's deadline (1.2 s) is left
      await runner.query('SET statement_timeout = 0');
      const started = Date.now();
      const failure = await runner.query('SELECT pg_sleep(3)').then(
        () => null,
        (error: unknown) => error,
      );
      expect(Date.now() - started).toBeLessThan(2500);
      expect(isUnavailable(POSTGRES_FAULTS, failure)).toBe(true);
      expect(String(failure)).toContain(QUERY_READ_TIMEOUT);
    } finally {
      await runner.release();
    }
    expect(await dataSource.query('SELECT 6 AS n')).toEqual([{ n: 6 }]);
    await dataSource.destroy();
  });
});
