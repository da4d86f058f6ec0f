import { connect } from 'node:net';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { rawRequest } from '../harness/raw-http';

const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' };
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const KEY_ID = 'key_000000000000000000000000';

/** The auth, analytics, health and admin-key routes, with the methods they allow. */
const ROUTES: Array<[string, string[]]> = [
  ['/v1/auth/validate', ['POST']],
  ['/v1/auth/refresh', ['POST']],
  ['/v1/auth/revoke', ['POST']],
  ['/v1/auth/rotate', ['POST']],
  ['/auth/validate', ['POST']],
  ['/auth/refresh', ['POST']],
  ['/auth/revoke', ['POST']],
  ['/auth/rotate', ['POST']],
  ['/v1/analytics/log', ['POST']],
  ['/analytics/log', ['POST']],
  ['/api/health', ['GET', 'HEAD']],
  ['/api/health/live', ['GET', 'HEAD']],
  ['/api/health/ready', ['GET', 'HEAD']],
  ['/admin/v1/keys', ['GET', 'HEAD', 'POST']],
  [`/admin/v1/keys/${KEY_ID}`, ['GET', 'HEAD', 'PATCH']],
  [`/admin/v1/keys/${KEY_ID}/revoke`, ['POST']],
  [`/admin/v1/keys/${KEY_ID}/rotate`, ['POST']],
  ['/admin/v1/audit', ['GET', 'HEAD']],
  ['/admin/v1/usage', ['GET', 'HEAD']],
  ['/admin/v1/usage/daily', ['GET', 'HEAD']],
  ['/admin/v1/overview', ['GET', 'HEAD']],
];

const WRONG_METHODS: Array<[string, string, string]> = ROUTES.flatMap(([path, allowed]) =>
  ALL_METHODS.filter((method) => !allowed.includes(method)).map((method): [string, string, string] => [method, path, allowed.join(', ')]),
);

/** What no error body may ever hold (CONTRACT 2). */
function expectCleanError(res: HttpAnswer, secrets: string[] = []): void {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) }));
  expect(Object.keys(res.body).every((k) => ['error', 'code', 'message'].includes(k))).toBe(true);
  const text = res.text;
  expect(text).not.toMatch(/<\s*(!doctype|html|head|body|pre)\b/i);
  for (const leak of ['stack', 'statusCode', 'Error:', 'node_modules', '/src/', ...secrets]) {
    expect({ leak, found: text.includes(leak), text }).toEqual({ leak, found: false, text });
  }
}

describe('Routing, errors and aliases across the service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('404', () => {
    it.each([
      ['GET', '/'],
      ['GET', '/nope'],
      ['POST', '/v1'],
      ['POST', '/v1/auth'],
      ['POST', '/v1/auth/validat'],
      ['POST', '/v1/auth/validate/extra'],
      ['POST', '/v1/auth/validate/'],
      ['POST', '/V1/AUTH/VALIDATE'],
      ['POST', '/v2/auth/validate'],
      ['POST', '/v1/v1/auth/validate'],
      ['GET', '/admin'],
      ['GET', '/admin/v2/audit'],
      ['GET', '/admin/v1/keys/a/b/c'],
      ['DELETE', '/api'],
      ['GET', '/favicon.ico'],
      ['GET', '/.env'],
      ['OPTIONS', '*'],
    ])('%s %s answers NOT_FOUND', async (method, path) => {
      const res = method === 'OPTIONS' ? await rawRequest(t.baseUrl, method, path) : await t.request(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers.get('allow')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('answers HEAD on an unknown path 404 with no body', async () => {
      const res = await t.request('HEAD', '/nope');
      expect(res.status).toBe(404);
      expect(res.text).toBe('');
    });

    it('does not echo a key sent in the query string of an unknown path', async () => {
      const key = await t.issueKey();
      for (const path of [`/nope?api_key=${key.api_key}`, `/v1/models/list/x?api_key=${key.api_key}`, `/${key.api_key}`]) {
        const res = await t.get(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect(res.text).not.toContain(key.api_key);
      }
    });

    it('unknown paths answer 404 before any body check: oversized, not JSON, or malformed JSON', async () => {
      const bodies: Array<[string, string]> = [
        ['text/plain', 'hello'],
        ['application/json', '{"api_key":'],
        ['application/json', 'x'.repeat(64 * 1024 + 1)],
      ];
      for (const [type, raw] of bodies) {
        const res = await t.request('POST', '/v1/nope', { raw, headers: { 'content-type': type } });
        expect({ type, size: raw.length, status: res.status, body: res.body }).toEqual({
          type,
          size: raw.length,
          status: 404,
          body: NOT_FOUND,
        });
      }
    });
  });

  describe('405', () => {
    it.each(WRONG_METHODS)('%s %s answers METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
      const res = await t.request(method, path);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      if (method !== 'HEAD') {
        expect(res.body).toEqual({ error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', message: `Allowed methods: ${allow}` });
      }
    });

    it('a wrong method answers 405 before any body check, and before admin authentication', async () => {
      const bodies: Array<[string, string]> = [
        ['text/plain', 'hello'],
        ['application/json', '[1,2,3]'],
        ['application/json', 'x'.repeat(64 * 1024 + 1)],
      ];
      for (const [method, path] of [
        ['PUT', '/v1/auth/validate'],
        ['DELETE', '/admin/v1/keys'],
        ['POST', '/api/health'],
      ]) {
        for (const [type, raw] of bodies) {
          const res = await t.request(method, path, { raw, headers: { 'content-type': type } });
          expect({ method, path, type, status: res.status, code: res.body?.code }).toEqual({
            method,
            path,
            type,
            status: 405,
            code: 'METHOD_NOT_ALLOWED',
          });
        }
      }
    });

    it('keeps the query string out of the route match', async () => {
      const res = await t.get('/v1/auth/validate?api_key=x');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });
  });

  describe('400 from the HTTP layer', () => {
    it('INVALID_REQUEST for a malformed URL', async () => {
      const res = await rawRequest(t.baseUrl, 'POST', '/v1/auth/%zz');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Bad request', code: 'INVALID_REQUEST', message: 'The request URL is malformed' });
    });

    it('INVALID_REQUEST as JSON for a request that is not HTTP', async () => {
      const text = await new Promise<string>((resolve, reject) => {
        const url = new URL(t.baseUrl);
        const socket = connect(Number(url.port), url.hostname, () => socket.write('THIS IS NOT HTTP\r\n\r\n'));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(text).toMatch(/content-type: application\/json/i);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      expect(body).toEqual({ error: 'Bad request', code: 'INVALID_REQUEST', message: 'Malformed HTTP request' });
    });
  });

  describe('error bodies never leak', () => {
    it('no HTML, stack, framework shape or presented key, across every kind of failure', async () => {
      const live = await t.issueKey();
      const expired = await t.issueKey({ expiresAt: new Date(Date.now() - 1000) });
      const revoked = await t.issueKey();
      await t.post('/v1/auth/revoke', { api_key: revoked.api_key });
      const upper = `svc_live_${live.api_key.slice(9).toUpperCase()}`;
      const almost = `${live.api_key}0`;
      const secrets = [live.api_key, expired.api_key, revoked.api_key, upper, almost, live.api_key.slice(9), TEST_ADMIN_TOKEN];
      const json = { 'content-type': 'application/json' };

      const failures: Array<Promise<HttpAnswer>> = [
        t.post('/v1/auth/validate', { api_key: expired.api_key }),
        t.post('/v1/auth/validate', { api_key: revoked.api_key }),
        t.post('/v1/auth/refresh', { api_key: upper }),
        t.post('/v1/auth/validate', { api_key: almost }),
        t.post('/v1/auth/validate', { api_key: ` ${live.api_key}` }),
        t.post('/v1/auth/revoke', { api_key: revoked.api_key, reason: live.api_key }),
        t.post('/v1/auth/revoke', { api_key: live.api_key, reason: { key: live.api_key } }),
        t.post('/v1/auth/validate', { api_key: { nested: live.api_key } }),
        t.post('/v1/auth/validate', { api_key: [live.api_key] }),
        t.request('GET', `/v1/auth/validate?api_key=${live.api_key}`),
        t.request('PUT', '/v1/auth/validate', { json: { api_key: live.api_key } }),
        t.request('POST', '/v1/auth/validate', { raw: `{"api_key":"${live.api_key}"`, headers: json }),
        t.request('POST', '/v1/auth/validate', { raw: `["${live.api_key}"]`, headers: json }),
        t.request('POST', '/v1/auth/validate', { raw: `{"api_key":"${live.api_key}","__proto__":{}}`, headers: json }),
        t.request('POST', '/v1/auth/validate', { raw: `api_key=${live.api_key}`, headers: { 'content-type': 'text/plain' } }),
        t.request('POST', '/v1/auth/validate', {
          raw: JSON.stringify({ api_key: live.api_key, pad: live.api_key.repeat(2000) }),
          headers: json,
        }),
        t.get(`/v1/auth/${live.api_key}`),
        t.get(`/nope?api_key=${live.api_key}&token=${TEST_ADMIN_TOKEN}`),
        t.request('GET', '/admin/v1/audit', { headers: { authorization: `Bearer ${live.api_key}` } }),
        t.request('GET', `/admin/v1/keys/${live.api_key}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }),
        t.request('GET', `/admin/v1/audit?key_id=${live.api_key}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }),
        t.admin('POST', '/admin/v1/keys', { email: live.api_key, license_type: 'free' }),
        t.admin('POST', '/admin/v1/keys', { user_id: live.api_key.slice(0, 40), license_type: 'free' }),
        t.admin('POST', '/admin/v1/keys', { email: 'x@example.org', license_type: live.api_key }),
        t.admin('PATCH', `/admin/v1/keys/${live.api_key}`, { license_type: 'free' }),
        rawRequest(t.baseUrl, 'POST', `/v1/auth/%zz?api_key=${live.api_key}`),
        rawRequest(t.baseUrl, 'POST', '/v1/auth/validate', { body: JSON.stringify({ api_key: live.api_key }) }),
      ];
      for (const res of await Promise.all(failures)) expectCleanError(res, secrets);
    });
  });

  describe('compatibility aliases (LEGACY_ROUTES default true)', () => {
    it.each(['validate', 'refresh'])('/auth/%s answers like /v1/auth/%s', async (name) => {
      const key = await t.issueKey();
      const versioned = await t.post(`/v1/auth/${name}`, { api_key: key.api_key });
      const alias = await t.post(`/auth/${name}`, { api_key: key.api_key });
      expect(alias.status).toBe(200);
      expect(alias.body).toEqual(versioned.body);
    });

    it('keeps the query string when rewriting', async () => {
      const res = await t.get('/auth/validate?api_key=x');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });

    it('rewrites only whole path segments', async () => {
      for (const path of ['/authx/validate', '/auth-validate', '/api/auth/validate']) {
        const res = await t.post(path, {});
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
    });
  });
});

describe('LEGACY_ROUTES=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { LEGACY_ROUTES: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['/auth/validate', '/auth/refresh', '/auth/revoke', '/auth/rotate'])('%s answers 404 NOT_FOUND', async (path) => {
    const key = await t.issueKey();
    const res = await t.post(path, { api_key: key.api_key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    expect(res.headers.get('allow')).toBeNull();
    // The alias did not revoke (or rotate) it.
    expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
  });

  it('a wrong method on a turned-off alias is 404, not 405', async () => {
    const res = await t.get('/auth/validate');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('the /v1 endpoints, health and admin still answer', async () => {
    const key = await t.issueKey();
    expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
    expect((await t.post('/v1/auth/refresh', { api_key: key.api_key })).status).toBe(200);
    expect((await t.get('/api/health')).status).toBe(200);
    expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).status).toBe(200);
    expect((await t.post('/v1/auth/revoke', { api_key: key.api_key })).status).toBe(200);
  });
});
