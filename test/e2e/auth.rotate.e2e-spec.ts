import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

/** Mid-month, far from a period boundary. */
const NOW = new Date('2026-03-10T12:00:00.000Z');
const DAY_MS = 86_400_000;
const KEY = /^svc_live_[0-9a-f]{48}$/;
const RESEARCH_FEATURES = ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'];
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Key rotation (SPEC 5.7, CONTRACT 16) over real HTTP: the holder's
 * POST /v1/auth/rotate (and its alias), the operators' rotate, the grace on a
 * controllable clock, one counter per license, the nudge of validate and refresh.
 */
describe('POST /v1/auth/rotate', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({ clock, env: { SAMPLE_MODELS: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(NOW));

  const rotate = (apiKey: unknown, extra: Record<string, unknown> = {}, path = '/v1/auth/rotate') =>
    t.post(path, { api_key: apiKey, ...extra });
  const validate = (apiKey: string) => t.post('/v1/auth/validate', { api_key: apiKey });
  const inference = (apiKey: string) => t.post('/v1/analytics/log', { api_key: apiKey, event_type: 'inference', model_name: 'm' });

  describe('200', () => {
    it('answers the new key once, its id and expiry, and when the old key stops working', async () => {
      const old = await t.issueKey({ expiresAt: new Date('2026-12-31T00:00:00Z') });
      const res = await rotate(old.api_key);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
      expect(res.body).toEqual({
        api_key: expect.stringMatching(KEY),
        key_id: expect.stringMatching(/^key_/),
        expires_at: '2026-12-31T00:00:00Z',
        previous_key_expires_at: at(DAY_MS),
        message: `API key rotated: store the new key; the previous key works until ${at(DAY_MS)}`,
      });
      expect(res.body.api_key).not.toBe(old.api_key);
      expect(res.body.key_id).not.toBe(old.key_id);
      expect(t.logger.lines.join('\n')).not.toContain(res.body.api_key);
      // stored only as a digest, as at issuance (CONTRACT 1)
      expect(await t.databaseContents()).not.toContain(res.body.api_key);
    });

    it('keeps the user, tier, features, environment, expiry and limit override; GET key shows the chain', async () => {
      const old = await t.issueKey({
        licenseType: 'research',
        environment: 'test',
        monthlyLimit: 1234,
        expiresAt: new Date('2026-09-01T00:00:00Z'),
      });
      const res = await rotate(old.api_key);
      expect(res.status).toBe(200);
      expect(res.body.api_key).toMatch(/^svc_test_[0-9a-f]{48}$/);
      const next = await validate(res.body.api_key);
      expect(next.status).toBe(200);
      expect(next.body).toMatchObject({
        user_id: old.user_id,
        license_type: 'research',
        features: RESEARCH_FEATURES,
        quota: { monthly_limit: 1234, used: 0, remaining: 1234 },
        expires_at: '2026-09-01T00:00:00Z',
        rotation_recommended: false,
      });
      const shownNew = await t.admin('GET', `/admin/v1/keys/${res.body.key_id}`);
      expect(shownNew.body).toMatchObject({
        user_id: old.user_id,
        environment: 'test',
        monthly_limit: 1234,
        monthly_limit_source: 'override',
        status: 'active',
        license_id: old.key_id,
        rotated_from: old.key_id,
        rotated_to: null,
      });
      const shownOld = await t.admin('GET', `/admin/v1/keys/${old.key_id}`);
      expect(shownOld.body).toMatchObject({
        status: 'active',
        expires_at: at(DAY_MS),
        license_id: old.key_id,
        rotated_from: null,
        rotated_to: res.body.key_id,
      });
    });

    it('answers the same at the unversioned alias', async () => {
      const old = await t.issueKey();
      const res = await rotate(old.api_key, { grace_seconds: 60 }, '/auth/rotate');
      expect(res.status).toBe(200);
      expect(res.body.previous_key_expires_at).toBe(at(60_000));
    });

    it('never extends the old key: a grace past its expiry ends at the expiry', async () => {
      const old = await t.issueKey({ expiresAt: new Date(NOW.getTime() + 3_600_000) });
      const res = await rotate(old.api_key, { grace_seconds: 604800 });
      expect(res.body.previous_key_expires_at).toBe(at(3_600_000));
    });
  });

  describe('the grace', () => {
    it('the old key validates in its grace, then answers KEY_EXPIRED; the new key keeps working', async () => {
      const old = await t.issueKey();
      const res = await rotate(old.api_key, { grace_seconds: 3600 });
      expect((await validate(old.api_key)).status).toBe(200);
      clock.advance(3_600_000 - 1000);
      expect((await validate(old.api_key)).status).toBe(200);
      clock.advance(1000);
      const expired = await validate(old.api_key);
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('KEY_EXPIRED');
      expect((await inference(old.api_key)).body.code).toBe('KEY_EXPIRED');
      expect((await validate(res.body.api_key)).status).toBe(200);
    });

    it('the default grace is KEY_ROTATION_GRACE_SECONDS (86400 as shipped)', async () => {
      const old = await t.issueKey();
      await rotate(old.api_key);
      clock.advance(DAY_MS - 1000);
      expect((await validate(old.api_key)).status).toBe(200);
      clock.advance(1000);
      expect((await validate(old.api_key)).body.code).toBe('KEY_EXPIRED');
    });

    it('grace_seconds 0 revokes the old key at once: INVALID_KEY (CONTRACT 2: revoked)', async () => {
      const old = await t.issueKey();
      const res = await rotate(old.api_key, { grace_seconds: 0 });
      expect(res.status).toBe(200);
      expect(res.body.previous_key_expires_at).toBe(at(0));
      expect(res.body.message).toBe('API key rotated: store the new key; the previous key is revoked');
      const refused = await validate(old.api_key);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
      expect((await t.admin('GET', `/admin/v1/keys/${old.key_id}`)).body.status).toBe('revoked');
      expect((await validate(res.body.api_key)).status).toBe(200);
    });

    it('a key already rotated answers 409 KEY_ROTATED in its grace, KEY_EXPIRED past it', async () => {
      const old = await t.issueKey();
      expect((await rotate(old.api_key)).status).toBe(200);
      const again = await rotate(old.api_key);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'API key was already rotated', code: 'KEY_ROTATED', message: expect.any(String) });
      clock.advance(DAY_MS);
      expect((await rotate(old.api_key)).body.code).toBe('KEY_EXPIRED');
    });

    it('the new key rotates in turn: one license, three keys', async () => {
      const first = await t.issueKey();
      const second = await rotate(first.api_key);
      clock.advance(DAY_MS * 2);
      const third = await rotate(second.body.api_key, { grace_seconds: 10 });
      expect(third.status).toBe(200);
      const shown = await t.admin('GET', `/admin/v1/keys/${third.body.key_id}`);
      expect(shown.body).toMatchObject({ license_id: first.key_id, rotated_from: second.body.key_id });
    });
  });

  describe('quota belongs to the license', () => {
    it('usage before and after adds up on one counter; reports show the license and the keys it was spent through', async () => {
      const old = await t.issueKey({ monthlyLimit: 5 });
      for (let i = 0; i < 2; i++) expect((await inference(old.api_key)).status).toBe(202);
      const res = await rotate(old.api_key);
      const next = res.body.api_key as string;
      expect((await validate(next)).body.quota).toMatchObject({ used: 2, remaining: 3 });
      expect((await inference(next)).body.quota).toEqual({ used: 3, remaining: 2 });
      expect((await inference(old.api_key)).body.quota).toEqual({ used: 4, remaining: 1 });
      expect((await inference(next)).status).toBe(202);
      const over = await inference(old.api_key);
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('QUOTA_EXCEEDED');
      expect((await validate(next)).body.code).toBe('QUOTA_EXCEEDED');
      for (const keyId of [old.key_id, res.body.key_id]) {
        const usage = await t.admin('GET', `/admin/v1/usage?key_id=${keyId}`);
        expect(usage.body).toMatchObject({
          key_id: keyId,
          license_id: old.key_id,
          used: 5,
          monthly_limit: 5,
          by_key: { [old.key_id]: 3, [res.body.key_id]: 2 },
          by_event_type: { inference: 5, model_load: 0, error: 0 },
        });
        expect((await t.admin('GET', `/admin/v1/keys/${keyId}`)).body.quota).toMatchObject({ used: 5, remaining: 0 });
      }
    });

    it('the quota race split across the old key (in grace) and the new one stops exactly at the limit', async () => {
      const old = await t.issueKey({ monthlyLimit: 40 });
      const res = await rotate(old.api_key);
      const keys = [old.api_key, res.body.api_key as string];
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => inference(keys[i % 2])));
      expect(answers.filter((a) => a.status === 202)).toHaveLength(40);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(60);
      const usage = await t.admin('GET', `/admin/v1/usage?key_id=${old.key_id}`);
      expect(usage.body.used).toBe(40);
      expect(usage.body.by_event_type.inference).toBe(40);
    });
  });

  describe('concurrency', () => {
    it('of concurrent rotations of one key, exactly one gets 200 and the others 409 KEY_ROTATED', async () => {
      const old = await t.issueKey();
      const answers = await Promise.all(Array.from({ length: 12 }, () => rotate(old.api_key)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409 && a.body.code === 'KEY_ROTATED')).toHaveLength(11);
      const winner = answers.find((a) => a.status === 200)!;
      expect((await t.admin('GET', `/admin/v1/keys/${old.key_id}`)).body.rotated_to).toBe(winner.body.key_id);
    });
  });

  describe('errors', () => {
    const bad = (res: HttpAnswer, status: number, code: string) => {
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    };

    it.each(['/v1/auth/rotate', '/auth/rotate'])(
      'every key error of CONTRACT 2 on %s, in order, with the rate-limit headers',
      async (path) => {
        const revoked = await t.issueKey();
        await t.post('/v1/auth/revoke', { api_key: revoked.api_key });
        const expired = await t.issueKey({ expiresAt: new Date(NOW.getTime() - 1000) });
        bad(await t.post(path, {}), 400, 'MISSING_KEY');
        bad(await t.post(path, { api_key: null }), 400, 'MISSING_KEY');
        bad(await t.post(path, { api_key: '   ' }), 400, 'MISSING_KEY');
        bad(await t.post(path, { api_key: 42 }), 400, 'INVALID_FORMAT');
        bad(await t.post(path, { api_key: `${revoked.api_key} ` }), 400, 'INVALID_FORMAT');
        bad(await t.post(path, { api_key: `svc_live_${'0'.repeat(48)}` }), 401, 'INVALID_KEY');
        bad(await t.post(path, { api_key: revoked.api_key }), 401, 'INVALID_KEY');
        bad(await t.post(path, { api_key: expired.api_key }), 401, 'KEY_EXPIRED');
        // key errors win over a bad body
        bad(await t.post(path, { api_key: expired.api_key, grace_seconds: -1 }), 401, 'KEY_EXPIRED');
        bad(await t.post(path, { api_key: 'nope', grace_seconds: 'x' }), 400, 'INVALID_FORMAT');
        expect((await t.post(path, { api_key: `svc_live_${'0'.repeat(48)}` })).body).toEqual({
          error: 'Invalid or inactive API key',
          code: 'INVALID_KEY',
        });
      },
    );

    it.each([[-1], [604801], [1.5], ['60'], [true], [{}]])(
      'grace_seconds %p: 400 INVALID_REQUEST naming it, nothing rotated',
      async (grace) => {
        const key = await t.issueKey();
        const res = await rotate(key.api_key, { grace_seconds: grace });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.stringContaining('grace_seconds') });
        expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).body.rotated_to).toBeNull();
      },
    );

    it('grace_seconds null means the default', async () => {
      const key = await t.issueKey();
      const res = await rotate(key.api_key, { grace_seconds: null });
      expect(res.status).toBe(200);
      expect(res.body.previous_key_expires_at).toBe(at(DAY_MS));
    });
  });

  describe('rotation_recommended', () => {
    it('validate and refresh say false before the key is 90 days old, true from then; a new key starts again', async () => {
      const key = await t.issueKey();
      clock.advance(90 * DAY_MS - 1000);
      expect((await validate(key.api_key)).body.rotation_recommended).toBe(false);
      expect((await t.post('/v1/auth/refresh', { api_key: key.api_key })).body.rotation_recommended).toBe(false);
      clock.advance(1000);
      expect((await validate(key.api_key)).body.rotation_recommended).toBe(true);
      expect((await t.post('/v1/auth/refresh', { api_key: key.api_key })).body.rotation_recommended).toBe(true);
      const res = await rotate(key.api_key);
      expect((await validate(res.body.api_key)).body.rotation_recommended).toBe(false);
      expect((await validate(key.api_key)).body.rotation_recommended).toBe(true);
    });
  });
});

describe('POST /admin/v1/keys/{key_id}/rotate', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({
      clock,
      env: { SAMPLE_MODELS: 'false', KEY_ROTATION_GRACE_SECONDS: '600', KEY_ROTATION_RECOMMENDED_DAYS: '30' },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(NOW));

  it('answers as the holder route does, with the configured default grace; an audit event on both keys, never the key', async () => {
    const old = await t.issueKey({ licenseType: 'commercial' });
    const res = await t.admin('POST', `/admin/v1/keys/${old.key_id}/rotate`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      api_key: expect.stringMatching(KEY),
      key_id: expect.stringMatching(/^key_/),
      expires_at: old.expires_at,
      previous_key_expires_at: at(600_000),
      message: expect.stringContaining(at(600_000)),
    });
    expect((await t.post('/v1/auth/validate', { api_key: res.body.api_key })).body.license_type).toBe('commercial');

    const [oldAudit, newAudit] = await Promise.all([
      t.admin('GET', `/admin/v1/audit?key_id=${old.key_id}`),
      t.admin('GET', `/admin/v1/audit?key_id=${res.body.key_id}`),
    ]);
    expect(oldAudit.body.entries.find((e: { action: string }) => e.action === 'key.rotated')).toMatchObject({
      action: 'key.rotated',
      key_id: old.key_id,
      details: {
        by: 'operator',
        rotated_to: res.body.key_id,
        license_id: old.key_id,
        grace_seconds: 600,
        previous_key_expires_at: at(600_000),
      },
    });
    expect(newAudit.body.entries).toEqual([
      expect.objectContaining({
        action: 'key.rotated',
        key_id: res.body.key_id,
        details: expect.objectContaining({ by: 'operator', rotated_from: old.key_id }),
      }),
    ]);
    expect(oldAudit.text + newAudit.text).not.toContain(res.body.api_key);
    expect(oldAudit.text + newAudit.text).not.toContain(old.api_key);
  });

  it('the holder rotation is audited on both keys too, by the holder', async () => {
    const old = await t.issueKey();
    const res = await t.post('/v1/auth/rotate', { api_key: old.api_key, grace_seconds: 5 });
    for (const keyId of [old.key_id, res.body.key_id]) {
      const audit = await t.admin('GET', `/admin/v1/audit?key_id=${keyId}`);
      const rotated = audit.body.entries.filter((e: { action: string }) => e.action === 'key.rotated');
      expect(rotated).toEqual([expect.objectContaining({ details: expect.objectContaining({ by: 'holder', grace_seconds: 5 }) })]);
    }
  });

  it('unknown 404 KEY_NOT_FOUND, revoked 409 KEY_REVOKED, rotated 409 KEY_ROTATED, bad grace 400, no token 401', async () => {
    const unknown = await t.admin('POST', '/admin/v1/keys/key_000000000000000000000000/rotate', {});
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'KEY_NOT_FOUND' });
    const revoked = await t.issueKey();
    await t.admin('POST', `/admin/v1/keys/${revoked.key_id}/revoke`, {});
    const r1 = await t.admin('POST', `/admin/v1/keys/${revoked.key_id}/rotate`, {});
    expect({ status: r1.status, code: r1.body.code }).toEqual({ status: 409, code: 'KEY_REVOKED' });
    const rotated = await t.issueKey();
    expect((await t.admin('POST', `/admin/v1/keys/${rotated.key_id}/rotate`, { grace_seconds: 30 })).status).toBe(200);
    const r2 = await t.admin('POST', `/admin/v1/keys/${rotated.key_id}/rotate`, {});
    expect({ status: r2.status, code: r2.body.code }).toEqual({ status: 409, code: 'KEY_ROTATED' });
    const key = await t.issueKey();
    const r3 = await t.admin('POST', `/admin/v1/keys/${key.key_id}/rotate`, { grace_seconds: 604801 });
    expect({ status: r3.status, code: r3.body.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    const r4 = await t.post(`/admin/v1/keys/${key.key_id}/rotate`, {});
    expect(r4.status).toBe(401);
  });

  it('of concurrent operator rotations exactly one wins', async () => {
    const key = await t.issueKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.admin('POST', `/admin/v1/keys/${key.key_id}/rotate`, {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.code === 'KEY_ROTATED')).toHaveLength(7);
  });

  it('revoking the new key revokes the old one in its grace with it (audited on both); revoking an old one leaves the new', async () => {
    const old = await t.issueKey();
    const res = await t.admin('POST', `/admin/v1/keys/${old.key_id}/rotate`, {});
    expect((await t.post('/v1/auth/validate', { api_key: old.api_key })).status).toBe(200);
    const revoked = await t.post('/v1/auth/revoke', { api_key: res.body.api_key, reason: 'lost laptop' });
    expect(revoked.status).toBe(200);
    for (const apiKey of [old.api_key, res.body.api_key]) {
      expect((await t.post('/v1/auth/validate', { api_key: apiKey })).body.code).toBe('INVALID_KEY');
    }
    expect((await t.admin('GET', `/admin/v1/keys/${old.key_id}`)).body.status).toBe('revoked');
    const audit = await t.admin('GET', `/admin/v1/audit?key_id=${old.key_id}`);
    const revocations = audit.body.entries.filter((e: { action: string }) => e.action === 'key.revoked');
    expect(revocations).toEqual([
      expect.objectContaining({ reason: 'lost laptop', details: { by: 'holder', with_successor: res.body.key_id } }),
    ]);

    const other = await t.issueKey();
    const next = await t.admin('POST', `/admin/v1/keys/${other.key_id}/rotate`, {});
    expect((await t.admin('POST', `/admin/v1/keys/${other.key_id}/revoke`, {})).status).toBe(200);
    expect((await t.post('/v1/auth/validate', { api_key: other.api_key })).body.code).toBe('INVALID_KEY');
    expect((await t.post('/v1/auth/validate', { api_key: next.body.api_key })).status).toBe(200);
  });

  it('PATCH: a rotated key is frozen (409 KEY_ROTATED); a tier or limit change of the new key reaches the old one in its grace', async () => {
    const old = await t.issueKey({ licenseType: 'free' });
    const res = await t.admin('POST', `/admin/v1/keys/${old.key_id}/rotate`, { grace_seconds: 3600 });
    const frozen = await t.admin('PATCH', `/admin/v1/keys/${old.key_id}`, { expires_at: '2030-01-01T00:00:00Z' });
    expect({ status: frozen.status, code: frozen.body.code }).toEqual({ status: 409, code: 'KEY_ROTATED' });
    const patched = await t.admin('PATCH', `/admin/v1/keys/${res.body.key_id}`, { license_type: 'commercial', monthly_limit: 77 });
    expect(patched.status).toBe(200);
    for (const apiKey of [old.api_key, res.body.api_key]) {
      expect((await t.post('/v1/auth/validate', { api_key: apiKey })).body).toMatchObject({
        license_type: 'commercial',
        quota: { monthly_limit: 77 },
      });
    }
    expect((await t.admin('GET', `/admin/v1/keys/${old.key_id}`)).body.expires_at).toBe(at(3_600_000));
    const audit = await t.admin('GET', `/admin/v1/audit?key_id=${res.body.key_id}`);
    expect(audit.body.entries.find((e: { action: string }) => e.action === 'key.updated').details.grace_keys).toEqual([old.key_id]);
  });

  it('rotation_recommended follows KEY_ROTATION_RECOMMENDED_DAYS', async () => {
    const key = await t.issueKey();
    clock.advance(30 * DAY_MS);
    expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).body.rotation_recommended).toBe(true);
  });
});
