import { type LicenseType } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';
import { COMPACT_JWS } from '../harness/license-token';

const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('POST /v1/auth/validate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('200', () => {
    it('answers the SPEC 4.1 body with exact types', async () => {
      const key = await t.issueKey({ licenseType: 'research' });
      const res = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        valid: true,
        user_id: key.user_id,
        email: 'ada@example.org',
        name: 'Ada Lovelace',
        organization: 'Analytical Engines Ltd',
        license_type: 'research',
        features: ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'],
        quota: { monthly_limit: 50000, used: 0, remaining: 50000, resets_at: expect.stringMatching(ISO_SECOND) },
        expires_at: key.expires_at,
        license_token: expect.stringMatching(COMPACT_JWS),
        rotation_recommended: false,
      });
      expect(res.body.expires_at).toMatch(ISO_SECOND);
      expect(res.text).not.toContain(key.api_key);
    });

    it('reports null name and organization when unknown, and null limits for enterprise', async () => {
      const key = await t.issueKey({ licenseType: 'enterprise', name: null, organization: null });
      const res = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body.name).toBeNull();
      expect(res.body.organization).toBeNull();
      expect(res.body.quota).toEqual({ monthly_limit: null, used: 0, remaining: null, resets_at: expect.stringMatching(ISO_SECOND) });
      expect(res.body.features).toEqual(expect.arrayContaining(['batch_inference', 'custom_models', 'dedicated_support', 'on_premise']));
    });

    it.each<[LicenseType, number, string[]]>([
      ['free', 10000, ['batch_inference']],
      [
        'commercial',
        500000,
        ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export', 'priority_support', 'custom_models'],
      ],
    ])('reports the %s tier with its limit and features', async (tier, limit, features) => {
      const key = await t.issueKey({ licenseType: tier });
      const res = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(res.body.license_type).toBe(tier);
      expect(res.body.quota.monthly_limit).toBe(limit);
      expect(res.body.features).toEqual(features);
    });

    it('accepts test keys the same as live keys', async () => {
      const key = await t.issueKey({ environment: 'test' });
      expect(key.api_key).toMatch(/^svc_test_[0-9a-f]{48}$/);
      const res = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(res.status).toBe(200);
    });

    it('answers at the unversioned alias used by the Julia wrapper', async () => {
      const key = await t.issueKey();
      const res = await t.post('/auth/validate', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body.valid).toBe(true);
    });

    it('accepts a JSON content type with parameters', async () => {
      const key = await t.issueKey();
      const res = await t.request('POST', '/v1/auth/validate', {
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
      ['blanks', { api_key: '   ' }],
    ])('MISSING_KEY for %s', async (_label, json) => {
      const res = await t.post('/v1/auth/validate', json);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String), code: 'MISSING_KEY', message: expect.any(String) });
    });

    it.each([
      ['a number', 42],
      ['an object', { key: 'x' }],
      ['a short key', 'svc_live_abc'],
      ['a wrong prefix', `xyz_live_${'a'.repeat(48)}`],
      ['a wrong environment', `svc_prod_${'a'.repeat(48)}`],
      ['49 hex characters', `svc_live_${'a'.repeat(49)}`],
      ['a non-hex character', `svc_live_${'a'.repeat(47)}g`],
      ['surrounding spaces', ` svc_live_${'a'.repeat(48)} `],
      ['a trailing newline', `svc_live_${'a'.repeat(48)}\n`],
    ])('INVALID_FORMAT for %s', async (_label, apiKey) => {
      const res = await t.post('/v1/auth/validate', { api_key: apiKey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid API key format', code: 'INVALID_FORMAT' });
    });

    it('INVALID_REQUEST for malformed JSON, and for JSON that is not an object', async () => {
      for (const raw of ['{"api_key":', '[1,2]', '"svc"', '42', 'null']) {
        const res = await t.request('POST', '/v1/auth/validate', { raw, headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('INVALID_REQUEST');
        expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'message']);
      }
    });
  });

  describe('401', () => {
    it('INVALID_KEY for a well-formed unknown key', async () => {
      const res = await t.post('/v1/auth/validate', { api_key: `svc_live_${'0'.repeat(48)}` });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
    });

    it('INVALID_KEY for an upper-case copy of an issued key (lookup is exact)', async () => {
      const key = await t.issueKey();
      const upper = key.api_key.replace(/^(svc_live_)(.*)$/, (_m, p: string, hex: string) => p + hex.toUpperCase());
      expect(upper).not.toBe(key.api_key);
      const res = await t.post('/v1/auth/validate', { api_key: upper });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_KEY');
    });

    it('KEY_EXPIRED once expires_at has passed', async () => {
      const key = await t.issueKey({ expiresAt: new Date(Date.now() - 1000) });
      const res = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'API key has expired', code: 'KEY_EXPIRED', message: expect.any(String) });
    });
  });

  describe('404, 405, 413, 415', () => {
    it('405 with Allow for GET', async () => {
      const res = await t.get('/v1/auth/validate');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    });

    it('413 for a body over 64 KiB, before the media type is judged', async () => {
      const raw = 'x'.repeat(64 * 1024 + 1);
      for (const type of ['application/json', 'text/plain']) {
        const res = await t.request('POST', '/v1/auth/validate', { raw, headers: { 'content-type': type } });
        expect(res.status).toBe(413);
        expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
      }
    });

    it('415 for a body that is not JSON', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await t.request('POST', '/v1/auth/validate', { raw: 'api_key=x', headers: { 'content-type': type } });
        expect(res.status).toBe(415);
        expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
    });
  });
});
