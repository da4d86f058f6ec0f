import { TestApp } from '../harness/create-test-app';

const REVOKED = { revoked: true, message: 'API key successfully revoked' };
const KEY_NOT_FOUND = { error: 'API key not found or already revoked', code: 'KEY_NOT_FOUND' };
const INVALID_KEY = { error: 'Invalid or inactive API key', code: 'INVALID_KEY' };
const BAD_REASON = {
  error: 'Invalid request',
  code: 'INVALID_REQUEST',
  message: 'reason must be a string of at most 1000 characters',
};
const WELL_FORMED_UNKNOWN = `svc_live_${'0'.repeat(48)}`;

describe('POST /v1/auth/revoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  async function auditOf(keyId: string): Promise<Array<Record<string, unknown>>> {
    const res = await t.admin('GET', `/admin/v1/audit?key_id=${keyId}`);
    expect(res.status).toBe(200);
    return res.body.entries;
  }

  describe('200', () => {
    it('answers { revoked: true, message } exactly', async () => {
      const key = await t.issueKey();
      const res = await t.post('/v1/auth/revoke', { api_key: key.api_key, reason: 'rotating' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual(REVOKED);
      expect(res.text).not.toContain(key.api_key);
    });

    it('makes the key INVALID_KEY on validate and refresh, at /v1 and at the aliases', async () => {
      const key = await t.issueKey();
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
      expect((await t.post('/v1/auth/revoke', { api_key: key.api_key })).body).toEqual(REVOKED);
      for (const path of ['/v1/auth/validate', '/v1/auth/refresh', '/auth/validate', '/auth/refresh']) {
        const res = await t.post(path, { api_key: key.api_key });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 401, body: INVALID_KEY });
      }
    });

    it('shows the key as revoked to operators, with revoked_at', async () => {
      const key = await t.issueKey();
      await t.post('/v1/auth/revoke', { api_key: key.api_key });
      const shown = await t.admin('GET', `/admin/v1/keys/${key.key_id}`);
      expect(shown.body.status).toBe('revoked');
      expect(shown.body.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    });

    it('revokes an expired key', async () => {
      const key = await t.issueKey({ expiresAt: new Date(Date.now() - 60_000) });
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).body.code).toBe('KEY_EXPIRED');
      const res = await t.post('/v1/auth/revoke', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(REVOKED);
      // Revoked wins over expired from now on.
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).body).toEqual(INVALID_KEY);
      expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).body.status).toBe('revoked');
    });

    it('revokes a test key and a key whose quota is used up', async () => {
      for (const [input, before] of [
        [{ environment: 'test' as const }, 200],
        [{ monthlyLimit: 0 }, 429],
      ] as const) {
        const key = await t.issueKey(input);
        // before: the test key is valid, the used-up key is refused for its quota only (QUOTA_EXCEEDED, not INVALID_KEY)
        const validated = await t.post('/v1/auth/validate', { api_key: key.api_key });
        expect({ input, status: validated.status, invalid: validated.body.code === INVALID_KEY.code }).toEqual({
          input,
          status: before,
          invalid: false,
        });
        const res = await t.post('/v1/auth/revoke', { api_key: key.api_key });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(REVOKED);
        // and refused from now on, shown as revoked
        expect({ input, after: (await t.post('/v1/auth/validate', { api_key: key.api_key })).body }).toEqual({ input, after: INVALID_KEY });
        expect((await t.post('/v1/auth/revoke', { api_key: key.api_key })).body).toMatchObject(KEY_NOT_FOUND);
        expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).body.status).toBe('revoked');
      }
    });

    it('records the reason, the time and the key id in the audit log', async () => {
      const key = await t.issueKey();
      const before = Date.now();
      await t.post('/v1/auth/revoke', { api_key: key.api_key, reason: 'laptop stolen' });
      const entries = await auditOf(key.key_id);
      const revoked = entries.filter((entry) => entry.action === 'key.revoked');
      expect(revoked).toEqual([
        {
          id: expect.any(String),
          at: expect.any(String),
          action: 'key.revoked',
          key_id: key.key_id,
          reason: 'laptop stolen',
          details: { by: 'holder' },
          actor: { type: 'key', key_id: key.key_id },
        },
      ]);
      const at = Date.parse(revoked[0].at as string);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
      expect(JSON.stringify(entries)).not.toContain(key.api_key);
    });

    it('records a revocation without a reason (absent or null) with no reason field', async () => {
      for (const body of [{}, { reason: null }]) {
        const key = await t.issueKey();
        expect((await t.post('/v1/auth/revoke', { api_key: key.api_key, ...body })).status).toBe(200);
        const revoked = (await auditOf(key.key_id)).filter((entry) => entry.action === 'key.revoked');
        expect(revoked).toHaveLength(1);
        expect(revoked[0]).not.toHaveProperty('reason');
      }
    });

    it('keeps an empty reason and one of exactly 1000 characters', async () => {
      for (const reason of ['', 'r'.repeat(1000)]) {
        const key = await t.issueKey();
        expect((await t.post('/v1/auth/revoke', { api_key: key.api_key, reason })).status).toBe(200);
        const revoked = (await auditOf(key.key_id)).filter((entry) => entry.action === 'key.revoked');
        expect(revoked[0].reason).toBe(reason);
      }
    });

    it('answers at the unversioned alias /auth/revoke', async () => {
      const key = await t.issueKey();
      const res = await t.post('/auth/revoke', { api_key: key.api_key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(REVOKED);
      expect((await t.post('/v1/auth/revoke', { api_key: key.api_key })).body).toEqual(KEY_NOT_FOUND);
    });

    it('of 20 concurrent revocations of one key over HTTP, exactly one wins; the rest get 404', async () => {
      const key = await t.issueKey();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_unused, i) => t.post('/v1/auth/revoke', { api_key: key.api_key, reason: `racer ${i}` })),
      );
      const ok = answers.filter((res) => res.status === 200);
      const notFound = answers.filter((res) => res.status === 404);
      expect(ok).toHaveLength(1);
      expect(ok[0].body).toEqual(REVOKED);
      expect(notFound).toHaveLength(19);
      for (const res of notFound) expect(res.body).toEqual(KEY_NOT_FOUND);
      const revoked = (await auditOf(key.key_id)).filter((entry) => entry.action === 'key.revoked');
      expect(revoked).toHaveLength(1);
    });
  });

  describe('400', () => {
    it.each([
      ['no body', undefined],
      ['an empty object', {}],
      ['null', { api_key: null }],
      ['an empty string', { api_key: '' }],
      ['blanks', { api_key: '  ' }],
      ['only a reason', { reason: 'why not' }],
    ])('MISSING_KEY for %s', async (_label, json) => {
      const res = await t.post('/v1/auth/revoke', json);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'API key is required',
        code: 'MISSING_KEY',
        message: 'Send the API key as documented for this endpoint',
      });
    });

    it.each([
      ['a number', 7],
      ['an object', { api_key: 'x' }],
      ['a short key', 'svc_live_1234'],
      ['a wrong prefix', `abc_live_${'a'.repeat(48)}`],
      ['a trailing newline', `svc_live_${'a'.repeat(48)}\n`],
    ])('INVALID_FORMAT for %s', async (_label, apiKey) => {
      const res = await t.post('/v1/auth/revoke', { api_key: apiKey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid API key format', code: 'INVALID_FORMAT' });
    });

    it('key errors win over a bad reason', async () => {
      expect((await t.post('/v1/auth/revoke', { reason: 42 })).body.code).toBe('MISSING_KEY');
      expect((await t.post('/v1/auth/revoke', { api_key: 'nope', reason: 42 })).body.code).toBe('INVALID_FORMAT');
    });

    it.each([
      ['a number', 42],
      ['a boolean', false],
      ['an object', { text: 'x' }],
      ['an array', ['x']],
      ['a string over 1000 characters', 'r'.repeat(1001)],
    ])('INVALID_REQUEST for a reason that is %s, and the key stays active', async (_label, reason) => {
      const key = await t.issueKey();
      const res = await t.post('/v1/auth/revoke', { api_key: key.api_key, reason });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(BAD_REASON);
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
      expect((await auditOf(key.key_id)).map((entry) => entry.action)).toEqual(['key.issued']);
    });

    it.each([
      ['malformed JSON', '{"api_key": "svc'],
      ['a JSON array', '[]'],
    ])('INVALID_REQUEST for %s', async (_label, raw) => {
      const res = await t.request('POST', '/v1/auth/revoke', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.any(String) });
    });
  });

  describe('404', () => {
    it('KEY_NOT_FOUND for a second revocation', async () => {
      const key = await t.issueKey();
      expect((await t.post('/v1/auth/revoke', { api_key: key.api_key })).status).toBe(200);
      const res = await t.post('/v1/auth/revoke', { api_key: key.api_key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(KEY_NOT_FOUND);
    });

    it('KEY_NOT_FOUND for a well-formed unknown key (not INVALID_KEY)', async () => {
      const res = await t.post('/v1/auth/revoke', { api_key: WELL_FORMED_UNKNOWN });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(KEY_NOT_FOUND);
    });

    it('KEY_NOT_FOUND for an upper-case copy of an issued key, which stays active', async () => {
      const key = await t.issueKey({ environment: 'test' });
      const upper = `svc_test_${key.api_key.slice('svc_test_'.length).toUpperCase()}`;
      expect(upper).not.toBe(key.api_key);
      expect((await t.post('/v1/auth/revoke', { api_key: upper })).body).toEqual(KEY_NOT_FOUND);
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
    });

    it('KEY_NOT_FOUND, not INVALID_REQUEST, for an unknown or revoked key with a bad reason', async () => {
      const unknown = await t.post('/v1/auth/revoke', { api_key: WELL_FORMED_UNKNOWN, reason: { nested: true } });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(KEY_NOT_FOUND);

      const key = await t.issueKey();
      await t.post('/v1/auth/revoke', { api_key: key.api_key });
      const revoked = await t.post('/v1/auth/revoke', { api_key: key.api_key, reason: 12 });
      expect(revoked.status).toBe(404);
      expect(revoked.body).toEqual(KEY_NOT_FOUND);
    });

    it('KEY_NOT_FOUND for a key revoked by an operator', async () => {
      const key = await t.issueKey();
      expect((await t.admin('POST', `/admin/v1/keys/${key.key_id}/revoke`, { reason: 'abuse' })).status).toBe(200);
      const res = await t.post('/v1/auth/revoke', { api_key: key.api_key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(KEY_NOT_FOUND);
    });
  });

  describe('405, 413, 415', () => {
    it.each(['GET', 'PUT', 'PATCH', 'DELETE'])('%s answers 405 with Allow: POST', async (method) => {
      const res = await t.request(method, '/v1/auth/revoke');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toEqual({ error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: POST' });
    });

    it('413 for a body over 64 KiB, and the key is not revoked', async () => {
      const key = await t.issueKey();
      const raw = JSON.stringify({ api_key: key.api_key, reason: 'x'.repeat(64 * 1024) });
      const res = await t.request('POST', '/v1/auth/revoke', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
    });

    it('415 for a form body, and the key is not revoked', async () => {
      const key = await t.issueKey();
      const res = await t.request('POST', '/v1/auth/revoke', {
        raw: `api_key=${key.api_key}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        error: 'Unsupported media type',
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the body as application/json',
      });
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
    });
  });
});
