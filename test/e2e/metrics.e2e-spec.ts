import { generateKeyPairSync } from 'node:crypto';
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { freePort } from '../harness/service-process';
import { serverAvailableSync } from '../harness/services';

const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' };
const redisUp = serverAvailableSync(6379, 'Redis');
/** What the service logs (once per incident) when it tried Redis and failed. */
const REDIS_UNREACHABLE = 'Redis unreachable: rate limits fall back to per-instance counters';

/** One sample's value from the Prometheus text, 0 when the series has no sample yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (.+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/).filter(Boolean);
    if (wanted.every((pair) => present.includes(pair)) && present.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

describe('GET /metrics (Prometheus)', () => {
  describe('200', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({
        env: { INSTALLER_GITHUB_TOKEN: 'ghp_metrics_static_token', RATE_LIMIT_REFRESH_PER_MINUTE: '2', SAMPLE_MODELS: 'true' },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    it('lists every series of docs/OPERATIONS.md, with HELP and TYPE', async () => {
      const text = await scrape(t);
      for (const [name, type] of [
        ['svc_http_requests_total', 'counter'],
        ['svc_http_request_duration_seconds', 'histogram'],
        ['svc_quota_units_consumed_total', 'counter'],
        ['svc_rate_limit_rejections_total', 'counter'],
        ['svc_quota_rejections_total', 'counter'],
        ['svc_installer_tokens_issued_total', 'counter'],
        ['svc_installer_upstream_failures_total', 'counter'],
        ['svc_errors_total', 'counter'],
        ['svc_database_up', 'gauge'],
        ['svc_info', 'gauge'],
        ['process_cpu_seconds_total', 'counter'],
        ['nodejs_eventloop_lag_seconds', 'gauge'],
      ]) {
        expect({ name, help: text.includes(`# HELP ${name} `), type: text.includes(`# TYPE ${name} ${type}`) }).toEqual({
          name,
          help: true,
          type: true,
        });
      }
      expect(sample(text, 'svc_database_up')).toBe(1);
      expect(sample(text, 'svc_info', { database: t.databaseKind, redis: 'none' })).toBe(1);
      expect(text).not.toContain('svc_redis_up');
    });

    it('counts requests by route pattern, method and status, with latency histograms: never the raw URL', async () => {
      const key = await t.issueKey();
      const before = await scrape(t);
      const validate = { method: 'POST', route: '/v1/auth/validate', status: '200' };
      const model = { method: 'GET', route: '/v1/models/:name', status: '200' };
      const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
      for (let i = 0; i < 3; i++) expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
      expect((await t.post('/auth/validate', { api_key: key.api_key })).status).toBe(200); // the alias counts as its /v1 route
      expect((await t.get(`/v1/models/motor_imagery_4class_v1?api_key=${key.api_key}`)).status).toBe(200);
      expect((await t.get(`/no/such/${key.api_key}`)).status).toBe(404);
      const after = await scrape(t);

      expect(sample(after, 'svc_http_requests_total', validate) - sample(before, 'svc_http_requests_total', validate)).toBe(4);
      expect(sample(after, 'svc_http_requests_total', model) - sample(before, 'svc_http_requests_total', model)).toBe(1);
      expect(sample(after, 'svc_http_requests_total', unmatched) - sample(before, 'svc_http_requests_total', unmatched)).toBe(1);
      const latency = { method: 'POST', route: '/v1/auth/validate' };
      expect(
        sample(after, 'svc_http_request_duration_seconds_count', latency) -
          sample(before, 'svc_http_request_duration_seconds_count', latency),
      ).toBe(4);
      expect(sample(after, 'svc_http_request_duration_seconds_sum', latency)).toBeGreaterThan(
        sample(before, 'svc_http_request_duration_seconds_sum', latency),
      );
      expect(sample(after, 'svc_http_request_duration_seconds_bucket', { ...latency, le: '+Inf' })).toBe(
        sample(after, 'svc_http_request_duration_seconds_count', latency),
      );
      expect(after).not.toContain('motor_imagery_4class_v1');
      expect(after).not.toContain(key.api_key);
      expect(after).not.toContain('/no/such');
    });

    it('counts quota units consumed: one per accepted inference, nothing for other events', async () => {
      const key = await t.issueKey({ licenseType: 'commercial' });
      const labels = { license_type: 'commercial' };
      const before = sample(await scrape(t), 'svc_quota_units_consumed_total', labels);
      expect((await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference' })).status).toBe(202);
      expect((await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference' })).status).toBe(202);
      expect((await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'model_load' })).status).toBe(202);
      expect(sample(await scrape(t), 'svc_quota_units_consumed_total', labels) - before).toBe(2);
    });

    it('counts rate-limit rejections and quota rejections by route', async () => {
      const key = await t.issueKey();
      const refresh = { route: '/v1/auth/refresh' };
      const before = await scrape(t);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.post('/v1/auth/refresh', { api_key: key.api_key })).status);
      expect(statuses).toEqual([200, 200, 429, 429]);

      const spent = await t.issueKey({ monthlyLimit: 0 });
      expect((await t.post('/v1/auth/validate', { api_key: spent.api_key })).body.code).toBe('QUOTA_EXCEEDED');
      expect((await t.post('/v1/analytics/log', { api_key: spent.api_key, event_type: 'inference' })).body.code).toBe('QUOTA_EXCEEDED');

      const after = await scrape(t);
      expect(sample(after, 'svc_rate_limit_rejections_total', refresh) - sample(before, 'svc_rate_limit_rejections_total', refresh)).toBe(
        2,
      );
      expect(
        sample(after, 'svc_quota_rejections_total', { route: '/v1/auth/validate' }) -
          sample(before, 'svc_quota_rejections_total', { route: '/v1/auth/validate' }),
      ).toBe(1);
      expect(
        sample(after, 'svc_quota_rejections_total', { route: '/v1/analytics/log' }) -
          sample(before, 'svc_quota_rejections_total', { route: '/v1/analytics/log' }),
      ).toBe(1);
      expect(
        sample(after, 'svc_errors_total', { code: 'RATE_LIMIT_EXCEEDED' }) -
          sample(before, 'svc_errors_total', { code: 'RATE_LIMIT_EXCEEDED' }),
      ).toBe(2);
      expect(
        sample(after, 'svc_errors_total', { code: 'QUOTA_EXCEEDED' }) - sample(before, 'svc_errors_total', { code: 'QUOTA_EXCEEDED' }),
      ).toBe(2);
    });

    it('counts installer tokens handed out, by provider', async () => {
      const key = await t.issueKey();
      const before = sample(await scrape(t), 'svc_installer_tokens_issued_total', { provider: 'static' });
      expect((await t.get('/v1/installer/github-token', { 'x-api-key': key.api_key })).status).toBe(200);
      expect((await t.post('/v1/installer/github-token', { api_key: key.api_key })).status).toBe(200);
      const after = await scrape(t);
      expect(sample(after, 'svc_installer_tokens_issued_total', { provider: 'static' }) - before).toBe(2);
      expect(after).not.toContain('ghp_metrics_static_token');
    });

    it('is not rate-limited and takes no key; other methods answer 405', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await t.get('/metrics');
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
      const post = await t.post('/metrics', {});
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
    });

    it('reports the database down at scrape time', async () => {
      const probe = await TestApp.start();
      try {
        expect(sample(await scrape(probe), 'svc_database_up')).toBe(1);
        await probe.app.get(DataSource).destroy();
        expect(sample(await scrape(probe), 'svc_database_up')).toBe(0);
      } finally {
        await probe.close();
      }
    });
  });

  describe('installer upstream failures', () => {
    let t: TestApp;
    beforeAll(async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      t = await TestApp.start({
        env: {
          GITHUB_APP_ID: '1',
          GITHUB_APP_PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
          GITHUB_APP_INSTALLATION_ID: '2',
          INSTALLER_REPOSITORY: 'acme/core',
          GITHUB_API_URL: `http://127.0.0.1:${await freePort()}`,
        },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('counts 502 UPSTREAM_ERROR answers', async () => {
      const key = await t.issueKey();
      expect((await t.get('/v1/installer/github-token', { 'x-api-key': key.api_key })).status).toBe(502);
      expect((await t.post('/v1/installer/github-token', { api_key: key.api_key })).status).toBe(502);
      const text = await scrape(t);
      expect(sample(text, 'svc_installer_upstream_failures_total')).toBe(2);
      expect(sample(text, 'svc_installer_tokens_issued_total', { provider: 'github_app' })).toBe(0);
    });
  });

  (redisUp ? describe : describe.skip)('with Redis configured', () => {
    it('Redis reachable: svc_redis_up is 1 once readiness reports the connection up', async () => {
      const t = await TestApp.start({ env: { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `svc-test:metrics:${process.pid}:` } });
      try {
        const text = await scrape(t);
        expect(text).toContain('# TYPE svc_redis_up gauge');
        expect(sample(text, 'svc_info', { database: t.databaseKind, redis: 'configured' })).toBe(1);
        // the client connects in the background: wait for it (a local Redis answers in milliseconds;
        // 10 s leaves a busy 2-core machine a wide margin)
        const deadline = Date.now() + 10_000;
        let connection = (await t.get('/api/health/ready')).body.details.redis.connection;
        while (connection !== 'up' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          connection = (await t.get('/api/health/ready')).body.details.redis.connection;
        }
        expect(connection).toBe('up');
        expect(sample(await scrape(t), 'svc_redis_up')).toBe(1);
      } finally {
        await t.close();
      }
    });
  });

  it('Redis configured but unreachable: svc_redis_up is 0 and readiness reports the connection down', async () => {
    // a "Redis" that takes each connection and closes it at once: the service's tries can be counted
    const tries: Socket[] = [];
    const deadRedis = createServer((socket) => {
      tries.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => deadRedis.listen(0, '127.0.0.1', resolve));
    const t = await TestApp.start({ env: { REDIS_URL: `redis://127.0.0.1:${(deadRedis.address() as AddressInfo).port}` } });
    try {
      // 0 is also the gauge before any attempt: wait until the service has tried and said it failed
      await eventually(() => tries.length > 0 && t.logger.lines.some((l) => l.includes(REDIS_UNREACHABLE)), { timeoutMs: 10_000 }).catch(
        () => undefined,
      );
      expect(tries.length).toBeGreaterThan(0);
      expect(t.logger.lines.filter((l) => l.includes(REDIS_UNREACHABLE)).length).toBeGreaterThan(0);
      const text = await scrape(t);
      expect(sample(text, 'svc_info', { database: t.databaseKind, redis: 'configured' })).toBe(1);
      expect(text).toMatch(/^svc_redis_up 0$/m);
      expect((await t.get('/api/health/ready')).body.details.redis.connection).toBe('down');
    } finally {
      await t.close();
      await new Promise<void>((resolve) => deadRedis.close(() => resolve()));
    }
  });

  describe('404 when disabled, or elsewhere with METRICS_PORT', () => {
    it('METRICS_ENABLED=false: no /metrics, and it is not documented', async () => {
      const t = await TestApp.start({ env: { METRICS_ENABLED: 'false' } });
      try {
        const res = await t.get('/metrics');
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect((await t.get('/api/docs-json')).body.paths['/metrics']).toBeUndefined();
      } finally {
        await t.close();
      }
    });

    it('METRICS_PORT: served on that port only, and closed with the service', async () => {
      const port = await freePort();
      const t = await TestApp.start({ env: { METRICS_PORT: String(port), HOST: '127.0.0.1' } });
      let closed = false;
      try {
        expect((await t.get('/metrics')).status).toBe(404);
        expect((await t.post('/v1/auth/validate', {})).status).toBe(400);
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(sample(text, 'svc_http_requests_total', { method: 'POST', route: '/v1/auth/validate', status: '400' })).toBe(1);
        expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
        await t.close();
        closed = true;
        await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
      } finally {
        if (!closed) await t.close();
      }
    });
  });
});
