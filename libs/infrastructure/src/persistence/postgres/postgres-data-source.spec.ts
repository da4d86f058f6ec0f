import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { serverAvailableSync } from '../../../../../test/harness/services';
import { TEST_POSTGRES_ADMIN_URL } from '../../../../../test/harness/test-servers';
import { postgresDataSourceOptions } from './postgres-data-source';

// On the real server's admin database: these queries read nothing and write nothing.
(serverAvailableSync(5432, 'PostgreSQL') ? describe : describe.skip)('postgresDataSourceOptions on PostgreSQL', () => {
  it("keeps the service pool's connections open when idle, where pg-pool's default closes them", async () => {
    const options = postgresDataSourceOptions({ kind: 'postgres', url: TEST_POSTGRES_ADMIN_URL, poolSize: 2, statementTimeoutMs: 1000 });
    const idleFor = async (extra: Record<string, unknown>): Promise<number> => {
      const dataSource = new DataSource({
        ...options,
        migrationsRun: false,
        extra: { ...(options.extra as Record<string, unknown>), idleTimeoutMillis: 100, ...extra },
      });
      await dataSource.initialize();
      try {
        await Promise.all([dataSource.query('SELECT pg_sleep(0.05)'), dataSource.query('SELECT pg_sleep(0.05)')]);
        await new Promise((resolve) => setTimeout(resolve, 400));
        return (dataSource.driver as unknown as { master: Pool }).master.totalCount;
      } finally {
        await dataSource.destroy();
      }
    };
    expect(await idleFor({})).toBe(2);
    expect(await idleFor({ min: 0 })).toBe(0);
  });
});
