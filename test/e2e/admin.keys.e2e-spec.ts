import { FixedClock } from '@svc/domain';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

const NOW = new Date('2026-05-10T08:00:00.000Z');
const RESETS_AT = '2026-06-01T00:00:00Z';
const ONE_YEAR_LATER = '2027-05-10T08:00:00Z';
const API_KEY = /^svc_(live|test)_[0-9a-f]{48}$/;
const KEY_ID = /^key_[0-9a-f]+$/;
const USER_ID = /^usr_[0-9a-f]+$/;
const RESEARCH_FEATURES = ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'];
const ENTERPRISE_FEATURES = [...RESEARCH_FEATURES, 'priority_support', 'custom_models', 'dedicated_support', 'on_premise'];

const KEY_NOT_FOUND = { error: 'API key not found', code: 'KEY_NOT_FOUND' };
const KEY_REVOKED = { error: 'API key is revoked', code: 'KEY_REVOKED', message: 'A revoked key is permanently inactive' };
const UNAUTHORIZED = { error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <admin token>' };
const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' };

function invalidRequestNaming(field: string): object {
  return { error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.stringContaining(field) };
}

describe('Admin API: keys and audit (/admin/v1)', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(NOW));

  async function create(body: Record<string, unknown>): Promise<HttpAnswer> {
    return t.admin('POST', '/admin/v1/keys', body);
  }

  async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await create({ email: 'grace@example.org', license_type: 'research', ...body });
    expect(res.status).toBe(201);
    return res.body;
  }

  describe('POST /admin/v1/keys', () => {
    describe('201', () => {
      it('issues a key and shows the plaintext once, with the tier limit and a one-year expiry by default', async () => {
        const res = await create({ email: 'grace@example.org', name: 'Grace Hopper', organization: 'Navy', license_type: 'research' });
        expect(res.status).toBe(201);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.body).toEqual({
          key_id: expect.stringMatching(KEY_ID),
          api_key: expect.stringMatching(API_KEY),
          user_id: expect.stringMatching(USER_ID),
          license_type: 'research',
          environment: 'live',
          expires_at: ONE_YEAR_LATER,
          monthly_limit: 50000,
        });
        expect(res.body.api_key).toMatch(/^svc_live_[0-9a-f]{48}$/);

        const validate = await t.post('/v1/auth/validate', { api_key: res.body.api_key });
        expect(validate.status).toBe(200);
        expect(validate.body).toMatchObject({
          user_id: res.body.user_id,
          email: 'grace@example.org',
          name: 'Grace Hopper',
          organization: 'Navy',
          license_type: 'research',
          expires_at: ONE_YEAR_LATER,
        });
      });

      it('issues test keys', async () => {
        const body = await createOk({ environment: 'test' });
        expect(body.environment).toBe('test');
        expect(body.api_key).toMatch(/^svc_test_[0-9a-f]{48}$/);
      });

      it('issues a new random key every time', async () => {
        const a = await createOk();
        const b = await createOk();
        expect(a.api_key).not.toBe(b.api_key);
        expect(a.key_id).not.toBe(b.key_id);
        expect(a.user_id).not.toBe(b.user_id);
      });

      it('gives an existing user another key with user_id, email then optional', async () => {
        const first = await createOk({ email: 'linus@example.org', name: 'Linus' });
        const second = await create({ user_id: first.user_id, license_type: 'enterprise' });
        expect(second.status).toBe(201);
        expect(second.body.user_id).toBe(first.user_id);
        expect(second.body.license_type).toBe('enterprise');
        const validate = await t.post('/v1/auth/validate', { api_key: second.body.api_key });
        expect(validate.body).toMatchObject({ user_id: first.user_id, email: 'linus@example.org', name: 'Linus' });
        expect(validate.body.features).toEqual(ENTERPRISE_FEATURES);
        // Both keys stay usable.
        expect((await t.post('/v1/auth/validate', { api_key: first.api_key })).status).toBe(200);
      });

      it.each([
        ['omitted: the tier limit', {}, 50000, 'tier'],
        ['null: unlimited', { monthly_limit: null }, null, 'override'],
        ['an integer: an override', { monthly_limit: 1234 }, 1234, 'override'],
        ['zero: an override', { monthly_limit: 0 }, 0, 'override'],
      ])('monthly_limit %s', async (_label, extra, limit, source) => {
        const body = await createOk(extra);
        expect(body.monthly_limit).toBe(limit);
        const shown = await t.admin('GET', `/admin/v1/keys/${body.key_id}`);
        expect(shown.body.monthly_limit).toBe(limit);
        expect(shown.body.monthly_limit_source).toBe(source);
        const refresh = await t.post('/v1/auth/refresh', { api_key: body.api_key });
        expect(refresh.body.quota.monthly_limit).toBe(limit);
        expect(refresh.body.quota.remaining).toBe(limit);
      });

      it('accepts an expires_at with an offset and answers it in UTC to the second', async () => {
        const body = await createOk({ expires_at: '2026-12-31T23:00:00.250+02:00' });
        expect(body.expires_at).toBe('2026-12-31T21:00:00Z');
      });

      it('accepts an expires_at in the past; the key then answers KEY_EXPIRED', async () => {
        const body = await createOk({ expires_at: '2020-01-01T00:00:00Z' });
        expect(body.expires_at).toBe('2020-01-01T00:00:00Z');
        const validate = await t.post('/v1/auth/validate', { api_key: body.api_key });
        expect(validate.status).toBe(401);
        expect(validate.body.code).toBe('KEY_EXPIRED');
        expect((await t.admin('GET', `/admin/v1/keys/${body.key_id}`)).body.status).toBe('expired');
      });

      it('ignores unknown fields', async () => {
        const body = await createOk({ api_key: `svc_live_${'a'.repeat(48)}`, key_id: 'key_mine', admin: true });
        expect(body.api_key).not.toBe(`svc_live_${'a'.repeat(48)}`);
        expect(body.key_id).not.toBe('key_mine');
      });
    });

    describe('400', () => {
      it.each<[string, Record<string, unknown>, string]>([
        ['license_type unknown', { license_type: 'gold' }, 'license_type'],
        ['license_type missing', { license_type: undefined }, 'license_type'],
        ['license_type upper case', { license_type: 'FREE' }, 'license_type'],
        ['license_type a number', { license_type: 1 }, 'license_type'],
        ['environment unknown', { environment: 'prod' }, 'environment'],
        ['environment a number', { environment: 0 }, 'environment'],
        ['monthly_limit -1', { monthly_limit: -1 }, 'monthly_limit'],
        ['monthly_limit 1.5', { monthly_limit: 1.5 }, 'monthly_limit'],
        ['monthly_limit "x"', { monthly_limit: 'x' }, 'monthly_limit'],
        ['monthly_limit "100"', { monthly_limit: '100' }, 'monthly_limit'],
        ['monthly_limit true', { monthly_limit: true }, 'monthly_limit'],
        ['monthly_limit beyond safe integers', { monthly_limit: 2 ** 53 }, 'monthly_limit'],
        ['expires_at "tomorrow"', { expires_at: 'tomorrow' }, 'expires_at'],
        ['expires_at null (every key expires, CONTRACT 1)', { expires_at: null }, 'expires_at'],
        ['expires_at without an offset', { expires_at: '2027-01-01T00:00:00' }, 'expires_at'],
        ['expires_at an impossible date', { expires_at: '2027-02-30T00:00:00Z' }, 'expires_at'],
        ['expires_at a number', { expires_at: 1767225600 }, 'expires_at'],
        ['expires_at beyond year 9999 in UTC', { expires_at: '9999-12-31T23:59:59-23:59' }, 'expires_at'],
        ['expires_at before year 0001 in UTC', { expires_at: '0001-01-01T00:00:00+00:01' }, 'expires_at'],
        ['expires_at in year 0000', { expires_at: '0000-06-01T00:00:00Z' }, 'expires_at'],
        ['email not an address', { email: 'not-an-email' }, 'email'],
        ['email a number', { email: 42 }, 'email'],
        ['email missing without user_id', { email: undefined }, 'email'],
        ['name a number', { name: 5 }, 'name'],
        ['user_id a number', { user_id: 5 }, 'user_id'],
      ])('INVALID_REQUEST naming the field for %s', async (_label, override, field) => {
        const res = await create({ email: 'bad@example.org', license_type: 'free', ...override });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming(field));
      });

      it('INVALID_REQUEST for no body, and for bodies that are not JSON objects', async () => {
        const none = await t.request('POST', '/admin/v1/keys', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
        expect(none.status).toBe(400);
        expect(none.body).toEqual(invalidRequestNaming('license_type'));
        for (const raw of ['[]', '"x"', '{"email":']) {
          const res = await t.request('POST', '/admin/v1/keys', {
            raw,
            headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
          });
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('INVALID_REQUEST');
        }
      });

      it('issues nothing when the body is invalid', async () => {
        const before = (await t.admin('GET', '/admin/v1/audit?limit=200')).body.entries.map((e: { id: string }) => e.id);
        await create({ email: 'x@example.org', license_type: 'free', monthly_limit: -5 });
        expect((await t.admin('GET', '/admin/v1/audit?limit=200')).body.entries.map((e: { id: string }) => e.id)).toEqual(before);
      });
    });

    describe('404', () => {
      it('USER_NOT_FOUND for an unknown user_id', async () => {
        const res = await create({ user_id: 'usr_000000000000000000000000', license_type: 'free' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'User not found', code: 'USER_NOT_FOUND' });
      });
    });
  });

  describe('GET /admin/v1/keys/{key_id}', () => {
    describe('200', () => {
      it('shows the key without its secret: prefix, state, terms and quota', async () => {
        const issued = await createOk({ email: 'ken@example.org', license_type: 'free' });
        const res = await t.admin('GET', `/admin/v1/keys/${issued.key_id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          key_id: issued.key_id,
          user_id: issued.user_id,
          email: 'ken@example.org',
          prefix: issued.api_key.slice(0, 12),
          license_type: 'free',
          environment: 'live',
          status: 'active',
          expires_at: ONE_YEAR_LATER,
          revoked_at: null,
          monthly_limit: 10000,
          monthly_limit_source: 'tier',
          max_devices: 1,
          max_devices_source: 'tier',
          quota: { monthly_limit: 10000, used: 0, remaining: 10000, resets_at: RESETS_AT },
          license_id: issued.key_id,
          rotated_from: null,
          rotated_to: null,
          // how far support (keys.update alone) may move the terms: the tier's limit, a year past the expiry
          update_bounds: { monthly_limit_max: 10000, max_devices_max: 1, expires_at_max: '2028-05-09T08:00:00Z' },
        });
        expect(res.body.prefix).toBe('svc_live_' + issued.api_key.slice(9, 12));
        expect(res.text).not.toContain(issued.api_key);
        expect(res.text).not.toContain(issued.api_key.slice(9));
        expect(res.text).not.toContain(issued.api_key.slice(12, 36));
      });

      it('status: active, then expired when the clock reaches expires_at, then revoked', async () => {
        const issued = await createOk({ expires_at: '2026-05-10T09:00:00Z' });
        expect((await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body.status).toBe('active');
        clock.set(new Date('2026-05-10T09:00:00Z'));
        expect((await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body.status).toBe('expired');
        await t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`);
        const revoked = await t.admin('GET', `/admin/v1/keys/${issued.key_id}`);
        expect(revoked.body.status).toBe('revoked');
        expect(revoked.body.revoked_at).toBe('2026-05-10T09:00:00Z');
      });

      it('shows unlimited keys with null limit and remaining', async () => {
        const issued = await createOk({ license_type: 'enterprise' });
        const res = await t.admin('GET', `/admin/v1/keys/${issued.key_id}`);
        expect(res.body.monthly_limit).toBeNull();
        expect(res.body.monthly_limit_source).toBe('tier');
        expect(res.body.quota).toEqual({ monthly_limit: null, used: 0, remaining: null, resets_at: RESETS_AT });
      });
    });

    describe('404', () => {
      it.each(['key_000000000000000000000000', 'nope', 'usr_000000000000000000000000'])('KEY_NOT_FOUND for %s', async (id) => {
        const res = await t.admin('GET', `/admin/v1/keys/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(KEY_NOT_FOUND);
      });

      it('KEY_NOT_FOUND when the plaintext key itself is used as the id', async () => {
        const issued = await createOk();
        const res = await t.admin('GET', `/admin/v1/keys/${issued.api_key}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(KEY_NOT_FOUND);
        expect(res.text).not.toContain(issued.api_key);
      });
    });
  });

  describe('PATCH /admin/v1/keys/{key_id}', () => {
    describe('200', () => {
      it('changes the tier, answers the GET shape, and validate reflects it at once', async () => {
        const issued = await createOk({ license_type: 'free' });
        const res = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, { license_type: 'research' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ...(await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body,
          license_type: 'research',
          monthly_limit: 50000,
        });
        expect(res.body.license_type).toBe('research');
        const validate = await t.post('/v1/auth/validate', { api_key: issued.api_key });
        expect(validate.body.license_type).toBe('research');
        expect(validate.body.features).toEqual(RESEARCH_FEATURES);
        expect(validate.body.quota.monthly_limit).toBe(50000);
      });

      it('a tier limit follows tier changes; an override does not', async () => {
        const tierKey = await createOk({ license_type: 'free' });
        const overrideKey = await createOk({ license_type: 'free', monthly_limit: 42 });
        for (const key of [tierKey, overrideKey]) {
          await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { license_type: 'commercial' });
        }
        expect((await t.admin('GET', `/admin/v1/keys/${tierKey.key_id}`)).body).toMatchObject({
          monthly_limit: 500000,
          monthly_limit_source: 'tier',
        });
        expect((await t.admin('GET', `/admin/v1/keys/${overrideKey.key_id}`)).body).toMatchObject({
          monthly_limit: 42,
          monthly_limit_source: 'override',
        });
      });

      it('sets and clears a limit override ("tier" goes back to the tier limit)', async () => {
        const issued = await createOk({ license_type: 'research' });
        const set = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, { monthly_limit: null });
        expect(set.body).toMatchObject({ monthly_limit: null, monthly_limit_source: 'override' });
        const cleared = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, { monthly_limit: 'tier' });
        expect(cleared.body).toMatchObject({ monthly_limit: 50000, monthly_limit_source: 'tier' });
      });

      it('moves expires_at: into the past expires the key, back into the future reactivates it', async () => {
        const issued = await createOk();
        const past = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, { expires_at: '2026-01-01T00:00:00Z' });
        expect(past.body).toMatchObject({ status: 'expired', expires_at: '2026-01-01T00:00:00Z' });
        expect((await t.post('/v1/auth/validate', { api_key: issued.api_key })).body.code).toBe('KEY_EXPIRED');
        const future = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, { expires_at: '2030-01-01T00:00:00Z' });
        expect(future.body).toMatchObject({ status: 'active', expires_at: '2030-01-01T00:00:00Z' });
        expect((await t.post('/v1/auth/validate', { api_key: issued.api_key })).status).toBe(200);
      });

      it('an empty body changes nothing', async () => {
        const issued = await createOk();
        const before = (await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body;
        const res = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, {});
        expect(res.status).toBe(200);
        expect(res.body).toEqual(before);
      });
    });

    describe('400', () => {
      it.each<[string, Record<string, unknown>, string]>([
        ['license_type unknown', { license_type: 'platinum' }, 'license_type'],
        ['license_type null', { license_type: null }, 'license_type'],
        ['expires_at "tomorrow"', { expires_at: 'tomorrow' }, 'expires_at'],
        ['expires_at null (every key expires, CONTRACT 1)', { expires_at: null }, 'expires_at'],
        ['expires_at beyond year 9999 in UTC', { expires_at: '9999-12-31T23:59:59-23:59' }, 'expires_at'],
        ['expires_at before year 0001 in UTC', { expires_at: '0001-01-01T00:00:00+23:59' }, 'expires_at'],
        ['monthly_limit -1', { monthly_limit: -1 }, 'monthly_limit'],
        ['monthly_limit 1.5', { monthly_limit: 1.5 }, 'monthly_limit'],
        ['monthly_limit "x"', { monthly_limit: 'x' }, 'monthly_limit'],
      ])('INVALID_REQUEST naming the field for %s, and nothing changes', async (_label, body, field) => {
        const issued = await createOk();
        const before = (await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body;
        const res = await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming(field));
        expect((await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body).toEqual(before);
      });
    });

    describe('404', () => {
      it('KEY_NOT_FOUND for an unknown key_id', async () => {
        const res = await t.admin('PATCH', '/admin/v1/keys/key_000000000000000000000000', { license_type: 'free' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(KEY_NOT_FOUND);
      });
    });

    describe('409', () => {
      it('KEY_REVOKED for a revoked key, revoked by its holder or an operator, and nothing changes', async () => {
        const byHolder = await createOk({ license_type: 'free' });
        await t.post('/v1/auth/revoke', { api_key: byHolder.api_key });
        const byOperator = await createOk({ license_type: 'free' });
        await t.admin('POST', `/admin/v1/keys/${byOperator.key_id}/revoke`);
        for (const key of [byHolder, byOperator]) {
          const res = await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { license_type: 'enterprise' });
          expect(res.status).toBe(409);
          expect(res.body).toEqual(KEY_REVOKED);
          const shown = (await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).body;
          expect(shown).toMatchObject({ license_type: 'free', status: 'revoked' });
        }
      });
    });
  });

  describe('POST /admin/v1/keys/{key_id}/revoke', () => {
    describe('200', () => {
      it('revokes: answers the key view, then the key is INVALID_KEY everywhere', async () => {
        const issued = await createOk();
        const res = await t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`, { reason: 'abuse' });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ key_id: issued.key_id, status: 'revoked', revoked_at: '2026-05-10T08:00:00Z' });
        expect(res.text).not.toContain(issued.api_key);
        for (const path of ['/v1/auth/validate', '/v1/auth/refresh', '/auth/validate']) {
          const answer = await t.post(path, { api_key: issued.api_key });
          expect(answer.status).toBe(401);
          expect(answer.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
        }
        expect((await t.post('/v1/auth/revoke', { api_key: issued.api_key })).status).toBe(404);
      });

      it('needs no body, and revokes expired keys too', async () => {
        const issued = await createOk({ expires_at: '2020-01-01T00:00:00Z' });
        const res = await t.request('POST', `/admin/v1/keys/${issued.key_id}/revoke`, {
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('revoked');
      });
    });

    describe('400', () => {
      it.each([
        ['a number', 1],
        ['an object', { why: 'x' }],
        ['over 1000 characters', 'x'.repeat(1001)],
      ])('INVALID_REQUEST for a reason that is %s', async (_label, reason) => {
        const issued = await createOk();
        const res = await t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`, { reason });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming('reason'));
        expect((await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).body.status).toBe('active');
      });
    });

    describe('404', () => {
      it('KEY_NOT_FOUND for an unknown key_id', async () => {
        const res = await t.admin('POST', '/admin/v1/keys/key_000000000000000000000000/revoke', {});
        expect(res.status).toBe(404);
        expect(res.body).toEqual(KEY_NOT_FOUND);
      });
    });

    describe('409', () => {
      it('KEY_REVOKED the second time', async () => {
        const issued = await createOk();
        expect((await t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`, {})).status).toBe(200);
        const res = await t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`, {});
        expect(res.status).toBe(409);
        expect(res.body).toEqual(KEY_REVOKED);
      });

      it('of 10 concurrent operator revocations exactly one wins', async () => {
        const issued = await createOk();
        const answers = await Promise.all(Array.from({ length: 10 }, () => t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`, {})));
        expect(answers.map((res) => res.status).sort()).toEqual([200, ...Array(9).fill(409)]);
      });
    });
  });

  describe('GET /admin/v1/audit', () => {
    describe('200', () => {
      it('lists one key’s history newest first: issued, updated, revoked', async () => {
        const issued = await createOk({ license_type: 'free', environment: 'test' });
        clock.advance(1000);
        await t.admin('PATCH', `/admin/v1/keys/${issued.key_id}`, { license_type: 'research', monthly_limit: 7 });
        clock.advance(1000);
        await t.admin('POST', `/admin/v1/keys/${issued.key_id}/revoke`, { reason: 'contract ended' });

        const res = await t.admin('GET', `/admin/v1/audit?key_id=${issued.key_id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          entries: [
            {
              id: expect.any(String),
              at: '2026-05-10T08:00:02.000Z',
              action: 'key.revoked',
              key_id: issued.key_id,
              reason: 'contract ended',
              details: { by: 'operator' },
              actor: { type: 'bootstrap' },
            },
            {
              id: expect.any(String),
              at: '2026-05-10T08:00:01.000Z',
              action: 'key.updated',
              key_id: issued.key_id,
              details: {
                license_type: { from: 'free', to: 'research' },
                monthly_limit: { from: { source: 'tier' }, to: { source: 'override', limit: 7 } },
              },
              actor: { type: 'bootstrap' },
            },
            {
              id: expect.any(String),
              at: '2026-05-10T08:00:00.000Z',
              action: 'key.issued',
              key_id: issued.key_id,
              details: { user_id: issued.user_id, license_type: 'free', environment: 'test', prefix: issued.api_key.slice(0, 12) },
              actor: { type: 'bootstrap' },
            },
          ],
          next_cursor: null,
        });
        const ids = res.body.entries.map((entry: { id: string }) => entry.id);
        expect(new Set(ids).size).toBe(3);
        expect(res.text).not.toContain(issued.api_key);
      });

      it('without key_id lists every key’s entries, newest first', async () => {
        clock.set(new Date('2026-05-11T00:00:00Z'));
        const a = await createOk();
        clock.advance(1000);
        const b = await createOk();
        const res = await t.admin('GET', '/admin/v1/audit');
        expect(res.status).toBe(200);
        const entries: Array<{ at: string; key_id: string }> = res.body.entries;
        expect(entries.slice(0, 2).map((entry) => entry.key_id)).toEqual([b.key_id, a.key_id]);
        const times = entries.map((entry) => Date.parse(entry.at));
        expect(times).toEqual([...times].sort((x, y) => y - x));
        for (const entry of entries) {
          expect(Object.keys(entry).every((k) => ['id', 'at', 'action', 'key_id', 'reason', 'details', 'actor'].includes(k))).toBe(true);
        }
      });
    });

    describe('400', () => {
      it('INVALID_REQUEST for key_id given twice', async () => {
        const issued = await createOk();
        const res = await t.admin('GET', `/admin/v1/audit?key_id=${issued.key_id}&key_id=${issued.key_id}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming('key_id'));
      });
    });

    describe('404', () => {
      it('KEY_NOT_FOUND for an unknown key_id', async () => {
        const res = await t.admin('GET', '/admin/v1/audit?key_id=key_000000000000000000000000');
        expect(res.status).toBe(404);
        expect(res.body).toEqual(KEY_NOT_FOUND);
      });
    });
  });

  describe('401', () => {
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/admin/v1/keys', { email: 'mallory@example.org', license_type: 'enterprise' }],
      ['GET', '/admin/v1/keys/key_000000000000000000000000', undefined],
      ['PATCH', '/admin/v1/keys/key_000000000000000000000000', { license_type: 'enterprise' }],
      ['POST', '/admin/v1/keys/key_000000000000000000000000/revoke', {}],
      ['GET', '/admin/v1/audit', undefined],
    ];
    const badHeaders: Array<[string, Record<string, string>]> = [
      ['no Authorization header', {}],
      ['a wrong token', { authorization: 'Bearer wrong-token-wrong-token-0000' }],
      ['the token with one character changed', { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}X` }],
      ['a token prefix', { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, 8)}` }],
      ['the token with an extra suffix', { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` }],
      ['the token without the Bearer scheme', { authorization: TEST_ADMIN_TOKEN }],
      ['a Basic scheme', { authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}` }],
      ['an empty Bearer', { authorization: 'Bearer ' }],
      ['the token in X-API-Key', { 'x-api-key': TEST_ADMIN_TOKEN }],
    ];

    it.each(calls)('%s %s answers UNAUTHORIZED for every bad credential', async (method, path, json) => {
      for (const [label, headers] of badHeaders) {
        const res = await t.request(method, path, { json, headers });
        expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 401, body: UNAUTHORIZED });
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('nothing is issued without the token', async () => {
      const before = (await t.admin('GET', '/admin/v1/audit?limit=200')).body.entries.map((e: { id: string }) => e.id);
      await t.request('POST', '/admin/v1/keys', { json: { email: 'm@example.org', license_type: 'free' } });
      expect((await t.admin('GET', '/admin/v1/audit?limit=200')).body.entries.map((e: { id: string }) => e.id)).toEqual(before);
    });

    it('accepts the scheme in any case', async () => {
      const res = await t.request('GET', '/admin/v1/audit', { headers: { authorization: `bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
    });

    it('authentication comes before body validation', async () => {
      const res = await t.request('POST', '/admin/v1/keys', { json: { license_type: 'gold' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });
  });

  describe('405', () => {
    it.each<[string, string, string]>([
      ['DELETE', '/admin/v1/keys', 'GET, HEAD, POST'],
      ['DELETE', '/admin/v1/keys/key_1', 'GET, HEAD, PATCH'],
      ['PUT', '/admin/v1/keys/key_1', 'GET, HEAD, PATCH'],
      ['GET', '/admin/v1/keys/key_1/revoke', 'POST'],
      ['POST', '/admin/v1/audit', 'GET, HEAD'],
    ])('%s %s answers METHOD_NOT_ALLOWED (Allow: %s), before authentication', async (method, path, allow) => {
      const res = await t.request(method, path);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body).toEqual({ error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', message: `Allowed methods: ${allow}` });
    });
  });
});

describe('Admin API without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { ADMIN_TOKEN: '' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('treats an empty ADMIN_TOKEN as unset', () => {
    expect(t.config.adminToken).toBeNull();
  });

  // Every row has three cells: a two-cell row would make Jest take the third parameter for `done`.
  it.each<[string, string, unknown]>([
    ['POST', '/admin/v1/keys', { email: 'e@example.org', license_type: 'enterprise' }],
    ['GET', '/admin/v1/keys', undefined],
    ['GET', '/admin/v1/keys/key_000000000000000000000000', undefined],
    ['PATCH', '/admin/v1/keys/key_000000000000000000000000', { license_type: 'enterprise' }],
    ['POST', '/admin/v1/keys/key_000000000000000000000000/revoke', {}],
    ['GET', '/admin/v1/audit', undefined],
    ['GET', '/admin/v1/usage?key_id=key_1&period=2026-05', undefined],
    ['DELETE', '/admin/v1/models/x', undefined],
  ])('%s %s answers 404 NOT_FOUND, with or without a bearer token', async (method, path, json) => {
    const variants: Array<Record<string, string>> = [{}, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, { authorization: 'Bearer ' }];
    for (const headers of variants) {
      const res = await t.request(method, path, { json, headers });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers.get('allow')).toBeNull();
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('the public API still works', async () => {
    const key = await t.issueKey();
    expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(200);
  });
});
