import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { eventually } from '../harness/eventually';
import { serverAvailableSync } from '../harness/services';
import { TcpProxy } from '../harness/tcp-proxy';

/** ISO 8601 / RFC 3339 in UTC, with or without fractional seconds. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const HEALTH_PATHS = ['/api/health', '/api/health/live', '/api/health/ready'];
const REDIS_PORT = 6379;

/** Terminus's answer with no indicators: liveness checks nothing but the process. */
const LIVE = { status: 'ok', info: {}, error: {}, details: {} };
const DATABASE_UP = { database: { status: 'up' } };
const DATABASE_DOWN = { database: { status: 'down', message: 'Database is not reachable' } };
/** The local model store (a folder that can be written) answers throughout these tests. */
const MODEL_STORE_UP = { model_store: { status: 'up' } };
const REDIS_SHARED = { redis: { status: 'up', connection: 'up', rate_limits: 'shared' } };
const REDIS_PER_INSTANCE = {
  redis: {
    status: 'up',
    connection: 'down',
    rate_limits: 'per-instance',
    message: 'Redis unreachable: rate limits fall back to per-instance counters',
  },
};

function expectNoRateLimitHeaders(res: HttpAnswer): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
    expect(res.headers.get(name)).toBeNull();
  }
}

/** Where the database lives (a SQLite path, or a PostgreSQL URL and database name): never shown to callers. */
function databaseNames(t: TestApp): string[] {
  const database = t.config.database;
  return database.kind === 'sqlite' ? [database.path] : [database.url, new URL(database.url).pathname.slice(1)];
}

function expectRecent(timestamp: string, before: number): void {
  expect(timestamp).toMatch(ISO_UTC);
  const at = Date.parse(timestamp);
  expect(at).toBeGreaterThanOrEqual(before - 1000);
  expect(at).toBeLessThanOrEqual(Date.now() + 1000);
}

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('200', () => {
    it('answers healthy with exactly status, timestamp, version and database', async () => {
      const before = Date.now();
      const res = await t.get('/api/health');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({ status: 'healthy', timestamp: expect.any(String), version: 'v1', database: 'connected' });
      expect(Object.keys(res.body).sort()).toEqual(['database', 'status', 'timestamp', 'version']);
      expectRecent(res.body.timestamp, before);
    });

    it('needs no key and ignores one given', async () => {
      const res = await t.get(`/api/health?api_key=svc_live_${'0'.repeat(48)}`, { 'x-api-key': 'garbage' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('healthy');
    });

    it('is never rate-limited and carries no rate-limit headers', async () => {
      const answers = await Promise.all(Array.from({ length: 150 }, () => t.get('/api/health')));
      for (const res of answers) {
        expect(res.status).toBe(200);
        expectNoRateLimitHeaders(res);
      }
    });

    it('answers HEAD with 200 and no body', async () => {
      const res = await t.request('HEAD', '/api/health');
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expectNoRateLimitHeaders(res);
    });

    it('liveness answers 200 while the process runs, in terminus shape with no indicators', async () => {
      const res = await t.get('/api/health/live');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual(LIVE);
      expect(Object.keys(res.body)).toEqual(['status', 'info', 'error', 'details']);
      expectNoRateLimitHeaders(res);
    });

    it('readiness answers 200 with the database up, in terminus shape; Redis not configured is not listed', async () => {
      const res = await t.get('/api/health/ready');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        status: 'ok',
        info: { ...DATABASE_UP, ...MODEL_STORE_UP },
        error: {},
        details: { ...DATABASE_UP, ...MODEL_STORE_UP },
      });
      expect(Object.keys(res.body)).toEqual(['status', 'info', 'error', 'details']);
      expectNoRateLimitHeaders(res);
    });

    it('HEAD on the probes answers 200 and no body', async () => {
      for (const path of ['/api/health/live', '/api/health/ready']) {
        const res = await t.request('HEAD', path);
        expect({ path, status: res.status, text: res.text }).toEqual({ path, status: 200, text: '' });
      }
    });
  });

  describe('404', () => {
    it.each(['/v1/api/health', '/health', '/api/health/other', '/api/healthz'])('NOT_FOUND for %s', async (path) => {
      const res = await t.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' });
    });
  });

  describe('405', () => {
    it.each(HEALTH_PATHS.flatMap((path) => ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => [method, path])))(
      '%s %s answers METHOD_NOT_ALLOWED with Allow: GET, HEAD',
      async (method, path) => {
        const res = await t.request(method, path);
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect(res.body).toEqual({
          error: 'Method not allowed',
          code: 'METHOD_NOT_ALLOWED',
          message: 'Allowed methods: GET, HEAD',
        });
      },
    );

    it('POST with a JSON body is still 405', async () => {
      const res = await t.post('/api/health', { status: 'healthy' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('503', () => {
    let down: TestApp;
    beforeAll(async () => {
      down = await TestApp.start();
      expect((await down.get('/api/health')).status).toBe(200);
      await down.app.get(DataSource).destroy();
    });
    afterAll(async () => {
      await down.close();
    });

    it('answers unhealthy with status, timestamp, error and database once the database is gone', async () => {
      const before = Date.now();
      const res = await down.get('/api/health');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        status: 'unhealthy',
        timestamp: expect.any(String),
        error: expect.any(String),
        database: 'disconnected',
      });
      expect(res.body.error.length).toBeGreaterThan(0);
      expectRecent(res.body.timestamp, before);
      expectNoRateLimitHeaders(res);
      for (const leak of ['stack', 'statusCode', '<', ...databaseNames(down)]) expect(res.text).not.toContain(leak);
    });

    it("a request that needs the database answers 503 SERVICE_UNAVAILABLE with the database module's Retry-After, never 500", async () => {
      const res = await down.post('/v1/auth/validate', { api_key: `svc_live_${'0'.repeat(48)}` });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('readiness answers 503 in terminus shape (not the error envelope), liveness still 200', async () => {
      const ready = await down.get('/api/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('content-type')).toMatch(/^application\/json/);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(ready.body).toEqual({
        status: 'error',
        info: MODEL_STORE_UP,
        error: DATABASE_DOWN,
        details: { ...DATABASE_DOWN, ...MODEL_STORE_UP },
      });
      expect(Object.keys(ready.body)).toEqual(['status', 'info', 'error', 'details']);
      expectNoRateLimitHeaders(ready);
      for (const leak of ['stack', 'statusCode', 'code', ...databaseNames(down)]) expect(ready.text).not.toContain(leak);

      const live = await down.get('/api/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toEqual(LIVE);
    });

    it('a failed check is not logged by terminus (the request log line records the 503)', async () => {
      await down.get('/api/health/ready');
      // Nest's static Logger goes to the last app's logger when two run in one process: look at both.
      expect([...t.logger.lines, ...down.logger.lines].filter((line) => line.includes('Health Check has failed'))).toEqual([]);
    });
  });
});

/**
 * Redis (rate-limit counters) behind a TCP proxy the test cuts: readiness
 * reports it and stays 200 while limits fall back to per-instance counters.
 */
(serverAvailableSync(REDIS_PORT, 'Redis') ? describe : describe.skip)('GET /api/health/ready with Redis configured', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    proxy = await new TcpProxy('127.0.0.1', REDIS_PORT).start();
    t = await TestApp.start({
      env: { REDIS_URL: `redis://${proxy.url}`, REDIS_KEY_PREFIX: `svc-test:health:${randomBytes(6).toString('hex')}:` },
    });
    await eventually(async () => (await t.get('/api/health/ready')).body.details?.redis?.rate_limits === 'shared');
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
  });

  it('Redis up: 200, listed up with shared rate limits', async () => {
    const res = await t.get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      info: { ...DATABASE_UP, ...MODEL_STORE_UP, ...REDIS_SHARED },
      error: {},
      details: { ...DATABASE_UP, ...MODEL_STORE_UP, ...REDIS_SHARED },
    });
  });

  it('Redis cut: still ready (200), reported with per-instance rate limits; /api/health unchanged; restored: shared again', async () => {
    await proxy.cut();
    await eventually(async () => (await t.get('/api/health/ready')).body.details?.redis?.rate_limits === 'per-instance', {
      timeoutMs: 5000,
    });
    const ready = await t.get('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ok',
      info: { ...DATABASE_UP, ...MODEL_STORE_UP, ...REDIS_PER_INSTANCE },
      error: {},
      details: { ...DATABASE_UP, ...MODEL_STORE_UP, ...REDIS_PER_INSTANCE },
    });
    const health = await t.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'healthy', timestamp: expect.any(String), version: 'v1', database: 'connected' });
    expect((await t.get('/api/health/live')).body).toEqual(LIVE);

    await proxy.restore();
    await eventually(async () => (await t.get('/api/health/ready')).body.details?.redis?.rate_limits === 'shared', { timeoutMs: 10000 });
  });
});
