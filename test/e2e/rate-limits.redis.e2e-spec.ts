import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { serverAvailableSync } from '../harness/services';
import { TcpProxy } from '../harness/tcp-proxy';

const REDIS_PORT = 6379;
const redisUp = serverAvailableSync(REDIS_PORT, 'Redis');

/** Two instances on one database and `env`'s Redis, once both report their rate limits shared. */
async function twoSharingInstances(env: Record<string, string>): Promise<[TestApp, TestApp]> {
  const a = await TestApp.start({ env });
  const b = await TestApp.start({ env: { ...env, DATABASE_URL: a.databaseUrl } });
  for (const instance of [a, b]) {
    await eventually(async () => (await instance.get('/api/health/ready')).body.details?.redis?.rate_limits === 'shared');
  }
  return [a, b];
}

/** Deletes every key of the test's namespace and disconnects. */
async function forgetNamespace(redis: Redis | undefined, namespace: string): Promise<void> {
  if (!redis) return;
  const keys = await redis.keys(`${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}

/**
 * Two service instances share the machine's Redis (a key namespace of this
 * test's own) and one SQLite file, so they enforce one combined limit. Redis
 * sits behind a TCP proxy the test cuts and restores.
 */
(redisUp ? describe : describe.skip)('Rate limits shared through Redis', () => {
  const namespace = `svc-test:${randomBytes(6).toString('hex')}:`;
  let proxy: TcpProxy;
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    proxy = await new TcpProxy('127.0.0.1', REDIS_PORT).start();
    const env = {
      REDIS_URL: `redis://${proxy.url}`,
      REDIS_KEY_PREFIX: namespace,
      RATE_LIMIT_REFRESH_PER_MINUTE: '10',
      RATE_LIMIT_VALIDATE_PER_MINUTE: '10',
    };
    [a, b] = await twoSharingInstances(env);
    redis = new Redis(REDIS_PORT, '127.0.0.1');
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await proxy?.stop();
    await forgetNamespace(redis, namespace);
  });

  it('two instances enforce one combined limit, counted under the configured namespace', async () => {
    const key = await a.issueKey();
    for (let i = 0; i < 5; i++) expect((await a.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await b.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);
    const overA = await a.post('/v1/auth/refresh', { api_key: key.api_key });
    const overB = await b.post('/v1/auth/refresh', { api_key: key.api_key });
    expect([overA.status, overB.status]).toEqual([429, 429]);
    expect(Number(overA.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const keys = await redis.keys(`${namespace}refresh:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${namespace}refresh:k:[0-9a-f]{64}$`)); // the key's digest, never the key
    expect(keys[0]).not.toContain(key.api_key);
    expect(await redis.get(keys[0])).toBe('10');
  });

  it('concurrent requests across both instances never exceed the limit', async () => {
    const key = await a.issueKey();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).post('/v1/auth/validate', { api_key: key.api_key })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(20);
  });

  it('Redis cut: requests keep succeeding with per-instance limits and readiness says so; restored: shared again', async () => {
    const key = await a.issueKey();
    expect((await a.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);

    await proxy.cut();
    const started = Date.now();
    const during = await a.post('/v1/auth/refresh', { api_key: key.api_key });
    expect(during.status).toBe(200);
    // bounded by the Redis client's command timeout (250 ms, redis-rate-counter.ts), not by the TCP
    // timeout (minutes); 5 s is that bound with a wide margin for a busy 2-core machine
    expect(Date.now() - started).toBeLessThan(5000);
    const ready = await a.get('/api/health/ready');
    expect(ready.status).toBe(200);
    const redisDown = {
      status: 'up',
      connection: 'down',
      rate_limits: 'per-instance',
      message: 'Redis unreachable: rate limits fall back to per-instance counters',
    };
    expect(ready.body).toEqual({
      status: 'ok',
      info: { database: { status: 'up' }, model_store: { status: 'up' }, redis: redisDown },
      error: {},
      details: { database: { status: 'up' }, model_store: { status: 'up' }, redis: redisDown },
    });
    // per instance now: each instance has its own fresh window of 10
    for (let i = 0; i < 9; i++) expect((await a.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);
    expect((await a.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(429);
    expect((await b.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);
    // Nest's static Logger goes to the last app's logger when two run in one process: count both.
    const warnings = [...a.logger.lines, ...b.logger.lines].filter((l) => l.includes('Redis unreachable'));
    expect(warnings).toHaveLength(2); // once per incident, per instance

    await proxy.restore();
    await eventually(async () => (await a.get('/api/health/ready')).body.details.redis.rate_limits === 'shared', { timeoutMs: 10000 });
    await eventually(async () => (await b.get('/api/health/ready')).body.details.redis.rate_limits === 'shared', { timeoutMs: 10000 });
    const fresh = await a.issueKey();
    for (let i = 0; i < 5; i++) await a.post('/v1/auth/refresh', { api_key: fresh.api_key });
    for (let i = 0; i < 5; i++) await b.post('/v1/auth/refresh', { api_key: fresh.api_key });
    expect((await b.post('/v1/auth/refresh', { api_key: fresh.api_key })).status).toBe(429);
  });
});

/**
 * The brute-force guard's block is shared too: failures counted through one
 * instance block the address on the other, for every admin authentication
 * (the right ADMIN_TOKEN and an operator's token included), until the window ends.
 */
(redisUp ? describe : describe.skip)('Brute-force guard shared through Redis: a blocked address is refused on every instance', () => {
  const namespace = `svc-test:${randomBytes(6).toString('hex')}:`;
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    const env = { REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`, REDIS_KEY_PREFIX: namespace, AUTH_FAILURE_LIMIT_PER_MINUTE: '5' };
    [a, b] = await twoSharingInstances(env);
    redis = new Redis(REDIS_PORT, '127.0.0.1');
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await forgetNamespace(redis, namespace);
  });

  it('five wrong tokens through one instance: ADMIN_TOKEN and an operator token get 429 on the other; the window ends, they pass', async () => {
    const operator = await a.admin('POST', '/admin/v1/operators', { name: 'Grace', role: 'viewer' });
    expect(operator.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      expect((await a.get('/admin/v1/keys', { authorization: `Bearer wrong-admin-token-${i}` })).status).toBe(401);
    }
    const refused = [await b.admin('GET', '/admin/v1/me'), await b.get('/admin/v1/me', { authorization: `Bearer ${operator.body.token}` })];
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const window = `${namespace}auth-failures:127.0.0.1`;
    expect(await redis.get(window)).toBe('5'); // the refusals were not counted
    // the window ends (its Redis key expires): every instance lets the right tokens through again
    await redis.del(window);
    expect((await b.admin('GET', '/admin/v1/me')).status).toBe(200);
    expect((await a.get('/admin/v1/me', { authorization: `Bearer ${operator.body.token}` })).status).toBe(200);
  });
});
