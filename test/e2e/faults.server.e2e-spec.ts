import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { TcpProxy } from '../harness/tcp-proxy';
import { type TestDatabase, createTestDatabase, testDatabaseKind } from '../harness/test-database';

const kind = testDatabaseKind();

/**
 * CONTRACT 14 on a database server (PostgreSQL in the e2e-pg run, MySQL /
 * MariaDB in e2e-mysql): a TCP proxy between the service and the database is
 * cut (connections refused) or black-holed (nothing answers); the service
 * answers 503 within bounded time, health says unhealthy, and it recovers by
 * itself when the proxy is restored. Nothing answered 202 is lost.
 */
(kind === 'sqlite' ? describe.skip : describe)(`${kind} faults`, () => {
  let folder: string;
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  const accepted: string[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-faults-'));
    database = await createTestDatabase(folder, kind);
    const real = new URL(database.url);
    proxy = await new TcpProxy(real.hostname, Number(real.port || { postgres: 5432, mysql: 3306 }[kind as 'postgres' | 'mysql'])).start();
    const viaProxy = new URL(database.url);
    viaProxy.host = proxy.url;
    t = await TestApp.start({
      env: { DATABASE_URL: viaProxy.toString(), DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_POOL_SIZE: '4', SAMPLE_MODELS: 'false' },
    });
  });

  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function logInference(apiKey: string): Promise<number> {
    const res = await t.post('/v1/analytics/log', { api_key: apiKey, event_type: 'inference' });
    if (res.status === 202) accepted.push(res.body.event_id);
    return res.status;
  }

  async function expectUnavailable(): Promise<void> {
    const started = Date.now();
    const health = await t.get('/api/health');
    // the ping gives up at 1.5 s (docs/OPERATIONS.md section 15: 503 within 2 s); what is guarded is that the answer is
    // bounded rather than held until the TCP timeout (minutes): 4 s leaves a busy 2-core machine a margin
    expect(Date.now() - started).toBeLessThan(4000);
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      status: 'unhealthy',
      timestamp: expect.any(String),
      error: expect.any(String),
      database: 'disconnected',
    });
  }

  it.each(['cut', 'blackhole'] as const)('%s: 503 within bounded time, then recovery without a restart', async (fault) => {
    const key = await t.issueKey({ monthlyLimit: 1000 });
    for (let i = 0; i < 5; i++) expect(await logInference(key.api_key)).toBe(202);

    await (fault === 'cut' ? proxy.cut() : proxy.blackhole());
    await expectUnavailable();
    for (const call of [
      () => t.post('/v1/auth/validate', { api_key: key.api_key }),
      () => t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference' }),
    ]) {
      const started = Date.now();
      const res = await call();
      // bounded by the pool's connect timeout and the statement timeout (1 s here), with a margin
      // for a busy 2-core machine; a hang would last until the TCP timeout (minutes)
      expect(Date.now() - started).toBeLessThan(8000);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await t.get('/api/health/live')).status).toBe(200);
    const ready = await t.get('/api/health/ready');
    expect(ready.status).toBe(503);
    const databaseDown = { database: { status: 'down', message: 'Database is not reachable' } };
    const modelStoreUp = { model_store: { status: 'up' } };
    expect(ready.body).toEqual({ status: 'error', info: modelStoreUp, error: databaseDown, details: { ...databaseDown, ...modelStoreUp } });

    await proxy.restore();
    await eventually(async () => (await t.get('/api/health')).status === 200, { timeoutMs: 15000, intervalMs: 200 });
    expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect(await logInference(key.api_key)).toBe(202);

    // every event answered 202 is stored (its id is in the database), and the quota counted exactly those
    const stored = await database.contents();
    for (const id of accepted) expect(stored).toContain(id);
    const quota = (await t.post('/v1/auth/validate', { api_key: key.api_key })).body.quota;
    expect(quota.used).toBe(10);
  });
});
