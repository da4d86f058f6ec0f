import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { serverAvailableSync } from '../../../../../test/harness/services';
import { TEST_POSTGRES_ADMIN_URL } from '../../../../../test/harness/test-servers';
import { postgresDataSourceOptions } from './postgres-data-source';

// On the real server's admin database: these queries read nothing and write nothing.
(serverAvailableSync(5432, 'PostgreSQL') ? describe : describe.skip)('postgresDataSourceOptions on PostgreSQL', () => {
  it("keeps the service pool's connections open when idle, where pg-pool's default closes them", async () => {
    const options = postgresDataSourceOptions({ kind: 'postgres', url: TEST_POSTGRES_ADMIN_URL, poolSize: 2, statementTimeoutMs: 1000 });
    /** The server's count of the pool's connections, after two queries at once and 400 ms idle (past an idle timeout of 100 ms). */
    const openAfterIdle = async (extra: Record<string, unknown>): Promise<number> => {
      const name = `svc-pool-spec-${randomUUID()}`;
      const dataSource = new DataSource({
        ...options,
        migrationsRun: false,
        extra: { ...(options.extra as Record<string, unknown>), application_name: name, idleTimeoutMillis: 100, ...extra },
      });
      const observer = new DataSource({ type: 'postgres', url: TEST_POSTGRES_ADMIN_URL, extra: { max: 1 } });
      await Promise.all([dataSource.initialize(), observer.initialize()]);
      try {
        await Promise.all([dataSource.query('SELECT pg_sleep(0.05)'), dataSource.query('SELECT pg_sleep(0.05)')]);
        await new Promise((resolve) => setTimeout(resolve, 400));
        const [{ open }] = await observer.query<Array<{ open: number }>>(
          'SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = $1',
          [name],
        );
        return open;
      } finally {
        await Promise.all([dataSource.destroy(), observer.destroy()]);
      }
    };
    expect(await openAfterIdle({})).toBe(2);
    expect(await openAfterIdle({ min: 0 })).toBe(0);
  });
});
