import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';
import { ForwardingProxy } from '../harness/forwarding-proxy';
import { type HttpAnswer } from '../harness/http';
import { rawRequest } from '../harness/raw-http';
import { eventually } from '../harness/eventually';
import { sha256Hex } from '../harness/sha256';

/** The SPEC 8 limits, set explicitly (the harness raises them for other tests). */
const SPEC_LIMITS = {
  RATE_LIMIT_VALIDATE_PER_MINUTE: '100',
  RATE_LIMIT_REFRESH_PER_MINUTE: '10',
  RATE_LIMIT_REVOKE_PER_MINUTE: '10',
  RATE_LIMIT_ROTATE_PER_MINUTE: '10',
  RATE_LIMIT_INSTALLER_PER_MINUTE: '20',
  RATE_LIMIT_MODELS_PER_MINUTE: '60',
  RATE_LIMIT_ANALYTICS_PER_MINUTE: '1000',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
  INSTALLER_GITHUB_TOKEN: 'ghs_static_test_token',
  SAMPLE_MODELS: 'false',
};

const START = new Date('2026-11-21T10:00:00Z');
const START_S = START.getTime() / 1000;

function expectLimitHeaders(res: HttpAnswer, limit: number, remaining: number, resetS: number): void {
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  expect(res.headers.get('x-ratelimit-reset')).toBe(String(resetS));
}

function expectNoLimitHeaders(res: HttpAnswer): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
    expect(res.headers.get(name)).toBeNull();
  }
}

type Call = (t: TestApp, apiKey: string) => Promise<HttpAnswer>;

const ENDPOINTS: Array<{ name: string; limit: number; ok: number; call: Call }> = [
  { name: 'POST /v1/auth/validate', limit: 100, ok: 200, call: (t, k) => t.post('/v1/auth/validate', { api_key: k }) },
  { name: 'POST /v1/auth/refresh', limit: 10, ok: 200, call: (t, k) => t.post('/v1/auth/refresh', { api_key: k }) },
  { name: 'GET /v1/installer/github-token', limit: 20, ok: 200, call: (t, k) => t.get('/v1/installer/github-token', { 'x-api-key': k }) },
  { name: 'POST /v1/installer/github-token', limit: 20, ok: 200, call: (t, k) => t.post('/v1/installer/github-token', { api_key: k }) },
  { name: 'GET /v1/models/list', limit: 60, ok: 200, call: (t, k) => t.get(`/v1/models/list?api_key=${k}`) },
  {
    name: 'POST /v1/analytics/log',
    limit: 1000,
    ok: 202,
    call: (t, k) => t.post('/v1/analytics/log', { api_key: k, event_type: 'model_load' }),
  },
];

describe('Rate limits (SPEC 8, CONTRACT 8)', () => {
  let t: TestApp;
  const clock = new FixedClock(START);
  beforeAll(async () => {
    t = await TestApp.start({ clock, env: SPEC_LIMITS });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(START));

  describe.each(ENDPOINTS)('$name', ({ limit, ok, call }) => {
    it(`allows ${limit} a minute per key, announcing the window on every answer, then 429 with Retry-After; the window resets`, async () => {
      const key = await t.issueKey({ licenseType: 'enterprise' });
      for (let i = 1; i <= limit; i++) {
        const res = await call(t, key.api_key);
        expect(res.status).toBe(ok);
        expectLimitHeaders(res, limit, limit - i, START_S + 60);
      }
      clock.advance(20_000);
      const over = await call(t, key.api_key);
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: 'Too many requests', code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) });
      expect(over.headers.get('retry-after')).toBe('40');
      expectLimitHeaders(over, limit, 0, START_S + 60);
      clock.advance(39_500);
      expect((await call(t, key.api_key)).headers.get('retry-after')).toBe('1');
      clock.advance(500);
      const again = await call(t, key.api_key);
      expect(again.status).toBe(ok);
      expectLimitHeaders(again, limit, limit - 1, START_S + 120);
    }, 120_000); // analytics stores 1,000 events, one committed transaction each: seconds on a loaded server
  });

  describe('POST /v1/auth/revoke', () => {
    it('counts per key, with headers on 404 and on 429', async () => {
      const unknown = `svc_live_${'e'.repeat(48)}`;
      for (let i = 1; i <= 10; i++) {
        const res = await t.post('/v1/auth/revoke', { api_key: unknown });
        expect(res.status).toBe(404);
        expectLimitHeaders(res, 10, 10 - i, START_S + 60);
      }
      const over = await t.post('/v1/auth/revoke', { api_key: unknown });
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(over.headers.get('retry-after'))).toBe(60);
      const other = await t.issueKey();
      expect((await t.post('/v1/auth/revoke', { api_key: other.api_key })).status).toBe(200);
    });
  });

  describe('POST /v1/auth/rotate (CONTRACT 16: 10 a minute, its own counter)', () => {
    it('counts per key with headers on 200, 409 and 401, then 429 with Retry-After; the alias shares it; the window resets', async () => {
      const key = await t.issueKey();
      const first = await t.post('/v1/auth/rotate', { api_key: key.api_key, grace_seconds: 3600 });
      expect(first.status).toBe(200);
      expectLimitHeaders(first, 10, 9, START_S + 60);
      for (let i = 2; i <= 10; i++) {
        const res = await t.post(i % 2 === 0 ? '/auth/rotate' : '/v1/auth/rotate', { api_key: key.api_key });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('KEY_ROTATED');
        expectLimitHeaders(res, 10, 10 - i, START_S + 60);
      }
      clock.advance(15_000);
      const over = await t.post('/v1/auth/rotate', { api_key: key.api_key });
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(over.headers.get('retry-after')).toBe('45');
      expectLimitHeaders(over, 10, 0, START_S + 60);
      // refresh and revoke keep counters of their own; the new key has its own
      expect((await t.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);
      expect((await t.post('/v1/auth/rotate', { api_key: first.body.api_key, grace_seconds: 60 })).status).toBe(200);
      clock.advance(45_000);
      const again = await t.post('/v1/auth/rotate', { api_key: key.api_key });
      expect(again.status).toBe(409);
      expectLimitHeaders(again, 10, 9, START_S + 120);
    });

    it('counts unknown keys too, with headers on 401', async () => {
      const unknown = `svc_live_${'f'.repeat(48)}`;
      for (let i = 1; i <= 10; i++) {
        const res = await t.post('/v1/auth/rotate', { api_key: unknown });
        expect(res.status).toBe(401);
        expectLimitHeaders(res, 10, 10 - i, START_S + 60);
      }
      expect((await t.post('/v1/auth/rotate', { api_key: unknown })).status).toBe(429);
    });
  });

  it('rate limiting answers before key checks, with headers on 401 too', async () => {
    const unknown = `svc_live_${'d'.repeat(48)}`;
    const first = await t.post('/v1/auth/refresh', { api_key: unknown });
    expect(first.status).toBe(401);
    expectLimitHeaders(first, 10, 9, START_S + 60);
    for (let i = 0; i < 9; i++) await t.post('/v1/auth/refresh', { api_key: unknown });
    const over = await t.post('/v1/auth/refresh', { api_key: unknown });
    expect(over.status).toBe(429);
  });

  it("one key's exhaustion does not touch another key's", async () => {
    const a = await t.issueKey();
    const b = await t.issueKey();
    for (let i = 0; i < 10; i++) await t.post('/v1/auth/refresh', { api_key: a.api_key });
    expect((await t.post('/v1/auth/refresh', { api_key: a.api_key })).status).toBe(429);
    const other = await t.post('/v1/auth/refresh', { api_key: b.api_key });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('9');
  });

  it('without a well-formed key, requests count per client address, apart from keyed ones', async () => {
    for (let i = 0; i < 10; i++) expect((await t.post('/v1/auth/refresh', {})).status).toBe(400);
    const over = await t.post('/v1/auth/refresh', { api_key: 'not-a-key' });
    expect(over.status).toBe(429);
    const keyed = await t.issueKey();
    expect((await t.post('/v1/auth/refresh', { api_key: keyed.api_key })).status).toBe(200);
  });

  it('the unversioned alias shares the counter of its /v1 endpoint', async () => {
    const key = await t.issueKey();
    for (let i = 0; i < 5; i++) await t.post('/auth/refresh', { api_key: key.api_key });
    for (let i = 0; i < 5; i++) await t.post('/v1/auth/refresh', { api_key: key.api_key });
    expect((await t.post('/auth/refresh', { api_key: key.api_key })).status).toBe(429);
  });

  it('health is never limited and carries no rate-limit headers', async () => {
    for (let i = 0; i < 150; i++) {
      const res = await t.get('/api/health');
      expect(res.status).toBe(200);
      expectNoLimitHeaders(res);
    }
  });

  it('answers decided by routing or the body (404, 405, 413, 415, malformed JSON) are not counted and carry no headers', async () => {
    const key = await t.issueKey();
    const answers = [
      await t.get('/v1/auth/refresh'),
      await t.post('/v1/nothing-here', { api_key: key.api_key }),
      await t.request('POST', '/v1/auth/refresh', { raw: 'x', headers: { 'content-type': 'text/plain' } }),
      await t.request('POST', '/v1/auth/refresh', { raw: '{', headers: { 'content-type': 'application/json' } }),
      await t.request('POST', '/v1/auth/refresh', { raw: 'x'.repeat(70_000), headers: { 'content-type': 'application/json' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([405, 404, 415, 400, 413]);
    answers.forEach(expectNoLimitHeaders);
    const counted = await t.post('/v1/auth/refresh', { api_key: key.api_key });
    expect(counted.headers.get('x-ratelimit-remaining')).toBe('9');
  });
});

describe('Brute-force guard (AUTH_FAILURE_LIMIT_PER_MINUTE)', () => {
  let t: TestApp;
  const clock = new FixedClock(START);
  beforeAll(async () => {
    t = await TestApp.start({ clock, env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('trips after the allowed failures from one address, lets valid keys through, and resets with the window', async () => {
    const valid = await t.issueKey();
    const expired = await t.issueKey({ expiresAt: new Date('2026-01-01T00:00:00Z') });
    const failures = [
      () => t.post('/v1/auth/validate', { api_key: `svc_live_${'a'.repeat(48)}` }),
      () => t.post('/v1/auth/validate', { api_key: 'malformed' }),
      () => t.post('/v1/auth/refresh', { api_key: expired.api_key }),
      () => t.post('/v1/auth/revoke', { api_key: `svc_live_${'b'.repeat(48)}` }),
      () => t.get('/v1/installer/github-token', { 'x-api-key': `svc_live_${'c'.repeat(48)}` }),
    ];
    const codes = [];
    for (const fail of failures) codes.push((await fail()).body.code);
    expect(codes).toEqual(['INVALID_KEY', 'INVALID_FORMAT', 'KEY_EXPIRED', 'KEY_NOT_FOUND', 'INVALID_KEY']);
    const tripped = await t.post('/v1/auth/validate', { api_key: `svc_live_${'a'.repeat(48)}` });
    expect(tripped.status).toBe(429);
    expect(tripped.body.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(tripped.headers.get('retry-after')).toBe('60');
    expect((await t.post('/v1/auth/validate', { api_key: valid.api_key })).status).toBe(200);
    expect((await t.post('/v1/analytics/log', { api_key: valid.api_key, event_type: 'model_load' })).status).toBe(202);
    expect((await t.post('/v1/auth/validate', {})).body.code).toBe('MISSING_KEY');
    clock.advance(60_000);
    const after = await t.post('/v1/auth/validate', { api_key: `svc_live_${'a'.repeat(48)}` });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_KEY');
  });
});

describe('Brute-force guard on the admin API: a blocked address is refused whatever token it brings', () => {
  let t: TestApp;
  const clock = new FixedClock(START);
  beforeAll(async () => {
    t = await TestApp.start({ clock, env: { ...SPEC_LIMITS, AUTH_FAILURE_LIMIT_PER_MINUTE: '60' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('after 60 wrong tokens, ADMIN_TOKEN, an operator token and no token all get the same 429 until the window ends', async () => {
    const operator = await t.admin('POST', '/admin/v1/operators', { name: 'Grace', role: 'viewer' });
    expect(operator.status).toBe(201);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const key = await t.issueKey();
    for (let i = 0; i < 60; i++) {
      expect((await t.get('/admin/v1/keys', bearer(`wrong-admin-token-${i}`))).status).toBe(401);
    }
    clock.advance(10_000);
    const refused = [
      await t.get('/admin/v1/keys', bearer('wrong-admin-token-60')),
      await t.admin('GET', '/admin/v1/me'),
      await t.admin('POST', '/admin/v1/keys', { email: 'blocked@example.org', license_type: 'free' }),
      await t.get('/admin/v1/me', bearer(operator.body.token)),
      await t.get('/admin/v1/keys'),
    ];
    for (const res of refused) {
      expect({ status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') }).toEqual({
        status: 429,
        body: { error: 'Too many requests', code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded; retry in 50 seconds' },
        retryAfter: '50',
      });
    }
    // a valid API key from the same address still passes (CONTRACT 8)
    expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
    clock.advance(50_000);
    expect((await t.admin('GET', '/admin/v1/me')).status).toBe(200);
    expect((await t.get('/admin/v1/me', bearer(operator.body.token))).status).toBe(200);
    // the refused POST issued nothing
    const keys = await t.admin('GET', '/admin/v1/keys?email=blocked@example.org');
    expect(keys.status).toBe(200);
    expect(keys.body.keys).toEqual([]);
    // the refusals were not counted: a new window, its whole allowance
    expect((await t.get('/admin/v1/keys', bearer('wrong-admin-token-61'))).status).toBe(401);
  });
});

describe('Key callers and address callers never share a window (TRUST_PROXY)', () => {
  it("an X-Forwarded-For address written as a key's digest counts apart from that key", async () => {
    const t = await TestApp.start({ env: { ...SPEC_LIMITS, TRUST_PROXY: '1' } });
    try {
      const key = await t.issueKey();
      const digest = sha256Hex(key.api_key);
      for (let i = 0; i < 10; i++) expect((await t.post('/v1/auth/refresh', {}, { 'x-forwarded-for': digest })).status).toBe(400);
      expect((await t.post('/v1/auth/refresh', {}, { 'x-forwarded-for': digest })).status).toBe(429);
      const own = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(own.status).toBe(200);
      expect(own.headers.get('x-ratelimit-remaining')).toBe('9');
    } finally {
      await t.close();
    }
  });
});

/**
 * Behind a proxy that appends the address it was reached from to the client's
 * own X-Forwarded-For (a load balancer, an ingress), the client writes the
 * leftmost entries: only the entries the trusted hops added count. The client
 * connects from 127.0.0.2, the proxy from 127.0.0.1, so the logged address
 * tells the client, the proxy and a forged entry apart.
 */
describe.each([
  ['a hop count', '1'],
  ["the proxy's address", '127.0.0.1/32, ::1'],
])('Behind an appending proxy, TRUST_PROXY as %s', (_form, trustProxy) => {
  const CLIENT = '127.0.0.2';
  let t: TestApp;
  let proxy: ForwardingProxy;
  beforeAll(async () => {
    t = await TestApp.start({ env: { ...SPEC_LIMITS, AUTH_FAILURE_LIMIT_PER_MINUTE: '60', TRUST_PROXY: trustProxy } });
    proxy = await new ForwardingProxy(t.baseUrl).start();
  });
  afterAll(async () => {
    await proxy?.stop();
    await t?.close();
  });

  it('the brute-force guard counts the real client, whatever first entry it forges, and the log names the real client', async () => {
    const statuses: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 65; i++) {
      const res = await rawRequest(proxy.baseUrl, 'GET', '/admin/v1/keys', {
        headers: { authorization: `Bearer wrong-admin-token-${i}`, 'x-forwarded-for': `203.0.113.${i + 1}` },
        localAddress: CLIENT,
      });
      statuses.push(res.status);
      ids.push(res.headers.get('x-request-id')!);
    }
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
    expect(statuses.slice(60)).toEqual(Array(5).fill(429));
    // another client (the test itself, straight from 127.0.0.1) is not blocked by them
    expect((await t.get('/admin/v1/keys', { authorization: 'Bearer wrong-admin-token' })).status).toBe(401);
    await eventually(() => ids.every((id) => t.logger.requestLines().some((line) => line.req_id === id)));
    const lines = t.logger.requestLines().filter((line) => ids.includes(line.req_id as string));
    expect(new Set(lines.map((line) => line.ip))).toEqual(new Set([CLIENT]));
    expect(t.logger.lines.filter((line) => line.includes('203.0.113.'))).toEqual([]);
  });

  it('a request arriving without X-Forwarded-For is counted by its peer address', async () => {
    const res = await rawRequest(t.baseUrl, 'GET', '/api/health/live', { localAddress: CLIENT });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    await eventually(() => t.logger.requestLines().some((line) => line.req_id === id));
    expect(t.logger.requestLines().find((line) => line.req_id === id)?.ip).toBe(CLIENT);
  });
});

describe('Windows kept in memory (RATE_LIMIT_MEMORY_WINDOWS)', () => {
  const callers = (n: number, letter: string) => Array.from({ length: n }, (_, i) => `svc_live_${letter.repeat(47)}${i}`);
  const clock = new FixedClock(START);

  async function blockedAfterOthers(windows: string | undefined): Promise<number[]> {
    const env: Record<string, string> = { ...SPEC_LIMITS, RATE_LIMIT_VALIDATE_PER_MINUTE: '2' };
    if (windows !== undefined) env.RATE_LIMIT_MEMORY_WINDOWS = windows;
    clock.set(START);
    const t = await TestApp.start({ clock, env });
    try {
      const key = await t.issueKey();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.post('/v1/auth/validate', { api_key: key.api_key })).status);
      // four other callers within the same minute: well-formed keys, unknown to the service, each with its own window
      for (const other of callers(4, 'd')) expect((await t.post('/v1/auth/validate', { api_key: other })).status).toBe(401);
      statuses.push((await t.post('/v1/auth/validate', { api_key: key.api_key })).status);
      return statuses;
    } finally {
      await t.close();
    }
  }

  it('by default a blocked key stays blocked for its window while other callers come', async () => {
    expect(await blockedAfterOthers(undefined)).toEqual([200, 200, 429, 429]);
  });

  it('past the bound the window hit longest ago is forgotten: that key starts a new window', async () => {
    expect(await blockedAfterOthers('4')).toEqual([200, 200, 429, 200]);
  });
});
