import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { runCli } from '../harness/cli';
import { BUILT_CLI } from '../harness/service-process';
import { TestApp } from '../harness/create-test-app';
import { testDatabaseKind } from '../harness/test-database';

/** Runs the built CLI on the given database, bounded in time; resolves its exit code. */
async function runCliOn(args: string[], databaseUrl: string): Promise<number | null> {
  return (await runCli(args, { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, SAMPLE_MODELS: 'false' } })).code;
}

/**
 * SQLite in WAL mode with a busy timeout: operators' CLI writes (new keys,
 * tier changes, revocations) while the service is under write load never make
 * a request fail, and the service sees the CLI's changes at once.
 */
(testDatabaseKind() === 'sqlite' ? describe : describe.skip)('SQLite: the CLI writing while the service serves', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run "npm run build" first (npm test does)`);
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the service's connection has the page cache SQLITE_CACHE_MB sets (8 MB by default)", async () => {
    const cacheSize = async (app: TestApp) =>
      (await app.app.get(DataSource).query<Array<{ cache_size: number }>>('PRAGMA cache_size'))[0].cache_size;
    expect(await cacheSize(t)).toBe(-8000);
    const other = await TestApp.start({ env: { SAMPLE_MODELS: 'false', SQLITE_CACHE_MB: '3' } });
    try {
      expect(await cacheSize(other)).toBe(-3000);
    } finally {
      await other.close();
    }
  });

  // four CLI runs at once, then one more, each bounded by runCliOn
  it('no request fails while CLI processes write to the same file', async () => {
    const key = await t.issueKey({ licenseType: 'enterprise' });
    const victim = await t.issueKey();
    let stop = false;
    const statuses: number[] = [];
    const load = (async () => {
      while (!stop) {
        const batch = await Promise.all([
          t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference' }),
          t.post('/v1/auth/validate', { api_key: key.api_key }),
          t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'model_load' }),
          t.post('/v1/auth/refresh', { api_key: key.api_key }),
        ]);
        statuses.push(...batch.map((r) => r.status));
      }
    })();
    const codes = await Promise.all([
      runCliOn(['keys', 'create', '--email', 'ops1@example.org', '--license-type', 'free', '--json'], t.databaseUrl),
      runCliOn(['keys', 'create', '--email', 'ops2@example.org', '--license-type', 'commercial', '--json'], t.databaseUrl),
      runCliOn(['keys', 'update', victim.key_id, '--license-type', 'enterprise', '--json'], t.databaseUrl),
      runCliOn(['keys', 'create', '--email', 'ops3@example.org', '--license-type', 'research', '--json'], t.databaseUrl),
    ]);
    const revoked = await runCliOn(['keys', 'revoke', victim.key_id, '--reason', 'rotation', '--json'], t.databaseUrl);
    stop = true;
    await load;
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(revoked).toBe(0);
    expect(statuses.length).toBeGreaterThan(40);
    expect(statuses.filter((s) => s >= 300)).toEqual([]);
    const after = await t.post('/v1/auth/validate', { api_key: victim.api_key });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_KEY');
    const audit = await t.admin('GET', `/admin/v1/audit?key_id=${victim.key_id}`);
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(['key.revoked', 'key.updated', 'key.issued']);
  }, 150_000);
});
