import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';
import { rawRequest } from '../harness/raw-http';
import { COMPACT_JWS } from '../harness/license-token';

/** Mid-month, so `resets_at` is the first instant of the next month (CONTRACT 4). */
const NOW = new Date('2026-03-15T12:34:56.789Z');
const RESETS_AT = '2026-04-01T00:00:00Z';
const RESEARCH_FEATURES = ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'];
const COMMERCIAL_FEATURES = [...RESEARCH_FEATURES, 'priority_support', 'custom_models'];
const WELL_FORMED_UNKNOWN = `svc_live_${'0'.repeat(48)}`;

describe('POST /v1/auth/refresh', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(NOW));

  describe('200', () => {
    it('answers the SPEC 4.2 body exactly: license, features, quota and expiry, no user record', async () => {
      const key = await t.issueKey({ licenseType: 'research', expiresAt: new Date('2026-09-30T18:00:00Z') });
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        valid: true,
        license_type: 'research',
        features: RESEARCH_FEATURES,
        quota: { monthly_limit: 50000, used: 0, remaining: 50000, resets_at: RESETS_AT },
        expires_at: '2026-09-30T18:00:00Z',
        license_token: expect.stringMatching(COMPACT_JWS),
        rotation_recommended: false,
      });
      expect(Object.keys(res.body).sort()).toEqual([
        'expires_at',
        'features',
        'license_token',
        'license_type',
        'quota',
        'rotation_recommended',
        'valid',
      ]);
      for (const userField of ['user_id', 'email', 'name', 'organization']) expect(res.body).not.toHaveProperty(userField);
      expect(res.text).not.toContain(key.api_key);
    });

    it('re-reads a tier change made through the admin API', async () => {
      const key = await t.issueKey({ licenseType: 'research' });
      const before = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(before.body.license_type).toBe('research');

      const patched = await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { license_type: 'commercial' });
      expect(patched.status).toBe(200);

      const after = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(after.status).toBe(200);
      expect(after.body).toEqual({
        valid: true,
        license_type: 'commercial',
        features: COMMERCIAL_FEATURES,
        quota: { monthly_limit: 500000, used: 0, remaining: 500000, resets_at: RESETS_AT },
        expires_at: key.expires_at,
        license_token: expect.stringMatching(COMPACT_JWS),
        rotation_recommended: false,
      });
    });

    it('re-reads a limit override and an expiry change made through the admin API', async () => {
      const key = await t.issueKey({ licenseType: 'free' });
      const patched = await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, {
        monthly_limit: 1234,
        expires_at: '2026-06-01T00:00:00Z',
      });
      expect(patched.status).toBe(200);
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.body.quota).toEqual({ monthly_limit: 1234, used: 0, remaining: 1234, resets_at: RESETS_AT });
      expect(res.body.expires_at).toBe('2026-06-01T00:00:00Z');
    });

    it('does not extend expiry: the same expires_at every time, and the key still expires on time', async () => {
      const expiresAt = new Date(NOW.getTime() + 60_000);
      const key = await t.issueKey({ expiresAt });
      const first = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      clock.advance(30_000);
      const second = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(first.body.expires_at).toBe('2026-03-15T12:35:56Z');
      expect(second.body.expires_at).toBe(first.body.expires_at);

      const shown = await t.admin('GET', `/admin/v1/keys/${key.key_id}`);
      expect(shown.body.expires_at).toBe(first.body.expires_at);

      clock.set(expiresAt);
      const expired = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('KEY_EXPIRED');
    });

    it('reports null monthly_limit and remaining for an unlimited (enterprise) key', async () => {
      const key = await t.issueKey({ licenseType: 'enterprise' });
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body.quota).toEqual({ monthly_limit: null, used: 0, remaining: null, resets_at: RESETS_AT });
    });

    it('still answers 200 with remaining 0 when the quota is used up (validate answers 429)', async () => {
      const key = await t.issueKey({ licenseType: 'free', monthlyLimit: 0 });
      const validate = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(validate.status).toBe(429);
      expect(validate.body.code).toBe('QUOTA_EXCEEDED');

      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body.quota).toEqual({ monthly_limit: 0, used: 0, remaining: 0, resets_at: RESETS_AT });
    });

    it('names the next month in resets_at, across a year boundary too', async () => {
      clock.set(new Date('2026-12-31T23:59:59Z'));
      const key = await t.issueKey();
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.body.quota.resets_at).toBe('2027-01-01T00:00:00Z');
    });

    it('answers test keys the same as live keys', async () => {
      const key = await t.issueKey({ environment: 'test' });
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body.valid).toBe(true);
    });

    it('ignores unknown fields', async () => {
      const key = await t.issueKey();
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key, extend: true, expires_at: '2099-01-01T00:00:00Z' });
      expect(res.status).toBe(200);
      expect(res.body.expires_at).toBe(key.expires_at);
    });

    it('answers at the unversioned alias /auth/refresh, identically', async () => {
      const key = await t.issueKey();
      const versioned = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      const alias = await t.post('/auth/refresh', { api_key: key.api_key });
      expect(alias.status).toBe(200);
      expect(alias.headers.get('cache-control')).toBe('no-store');
      expect(alias.body).toEqual(versioned.body);
    });

    it('accepts a JSON content type with parameters', async () => {
      const key = await t.issueKey();
      const res = await t.request('POST', '/v1/auth/refresh', {
        raw: JSON.stringify({ api_key: key.api_key }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.status).toBe(200);
    });
  });

  describe('400', () => {
    it.each([
      ['no body', undefined],
      ['an empty object', {}],
      ['null', { api_key: null }],
      ['an empty string', { api_key: '' }],
      ['blanks', { api_key: ' \t ' }],
    ])('MISSING_KEY for %s', async (_label, json) => {
      const res = await t.post('/v1/auth/refresh', json);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'API key is required',
        code: 'MISSING_KEY',
        message: 'Send the API key as documented for this endpoint',
      });
    });

    it('MISSING_KEY for an empty JSON body', async () => {
      const res = await t.request('POST', '/v1/auth/refresh', { raw: '', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('MISSING_KEY');
    });

    it.each([
      ['a number', 42],
      ['a boolean', true],
      ['an array', ['svc_live_' + 'a'.repeat(48)]],
      ['an object', { key: 'x' }],
      ['a short key', 'svc_live_abc'],
      ['a wrong prefix', `xyz_live_${'a'.repeat(48)}`],
      ['a wrong environment', `svc_prod_${'a'.repeat(48)}`],
      ['47 hex characters', `svc_live_${'a'.repeat(47)}`],
      ['a non-hex character', `svc_test_${'a'.repeat(47)}z`],
      ['surrounding spaces', ` svc_live_${'a'.repeat(48)}`],
    ])('INVALID_FORMAT for %s', async (_label, apiKey) => {
      const res = await t.post('/v1/auth/refresh', { api_key: apiKey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid API key format', code: 'INVALID_FORMAT' });
    });

    it.each([
      ['malformed JSON', '{"api_key":'],
      ['a JSON array', '[1,2]'],
      ['a JSON string', '"svc"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
      ['a prototype-poisoning body', '{"__proto__":{"api_key":"x"}}'],
    ])('INVALID_REQUEST for %s', async (_label, raw) => {
      const res = await t.request('POST', '/v1/auth/refresh', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.any(String) });
    });
  });

  describe('401', () => {
    it('INVALID_KEY for a well-formed unknown key', async () => {
      const res = await t.post('/v1/auth/refresh', { api_key: WELL_FORMED_UNKNOWN });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
    });

    it('INVALID_KEY for a revoked key', async () => {
      const key = await t.issueKey();
      expect((await t.post('/v1/auth/revoke', { api_key: key.api_key })).status).toBe(200);
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
    });

    it('KEY_EXPIRED once expires_at has passed', async () => {
      const key = await t.issueKey({ expiresAt: new Date(NOW.getTime() - 1000) });
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'API key has expired', code: 'KEY_EXPIRED', message: 'Request a new key from support' });
    });

    it('KEY_EXPIRED at the exact instant of expires_at', async () => {
      const key = await t.issueKey({ expiresAt: NOW });
      const res = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('KEY_EXPIRED');
    });

    it('the alias answers the same errors', async () => {
      const res = await t.post('/auth/refresh', { api_key: WELL_FORMED_UNKNOWN });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
    });
  });

  describe('405', () => {
    it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('%s answers METHOD_NOT_ALLOWED with Allow: POST', async (method) => {
      const res = await t.request(method, '/v1/auth/refresh');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toEqual({ error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: POST' });
    });

    it('GET at the alias too', async () => {
      const res = await t.get('/auth/refresh');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    });
  });

  describe('413', () => {
    it('PAYLOAD_TOO_LARGE for a body over 64 KiB, whatever its media type', async () => {
      const key = await t.issueKey();
      const raw = JSON.stringify({ api_key: key.api_key, padding: 'x'.repeat(64 * 1024) });
      for (const type of ['application/json', 'text/plain']) {
        const res = await t.request('POST', '/v1/auth/refresh', { raw, headers: { 'content-type': type } });
        expect(res.status).toBe(413);
        expect(res.body).toEqual({
          error: 'Payload too large',
          code: 'PAYLOAD_TOO_LARGE',
          message: 'Request bodies are limited to 64 KiB (1 MiB for POST /v1/analytics/batch)',
        });
      }
    });

    it('accepts a body of exactly 64 KiB', async () => {
      const key = await t.issueKey();
      const skeleton = JSON.stringify({ api_key: key.api_key, padding: '' });
      const raw = JSON.stringify({ api_key: key.api_key, padding: 'x'.repeat(64 * 1024 - skeleton.length) });
      expect(Buffer.byteLength(raw)).toBe(64 * 1024);
      const res = await t.request('POST', '/v1/auth/refresh', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
    });
  });

  describe('415', () => {
    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp'])(
      'UNSUPPORTED_MEDIA_TYPE for %s, even with a valid key in the body',
      async (type) => {
        const key = await t.issueKey();
        const res = await t.request('POST', '/v1/auth/refresh', {
          raw: JSON.stringify({ api_key: key.api_key }),
          headers: { 'content-type': type },
        });
        expect(res.status).toBe(415);
        expect(res.body).toEqual({
          error: 'Unsupported media type',
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Send the body as application/json',
        });
      },
    );

    it('UNSUPPORTED_MEDIA_TYPE for a body sent without any Content-Type', async () => {
      const res = await rawRequest(t.baseUrl, 'POST', '/v1/auth/refresh', { body: '{"api_key":null}' });
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });
  });
});
