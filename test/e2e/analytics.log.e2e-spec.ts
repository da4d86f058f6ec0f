import { DataSource } from 'typeorm';
import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';

const inference = (apiKey: string, extra: Record<string, unknown> = {}) => ({
  api_key: apiKey,
  event_type: 'inference',
  model_name: 'motor_imagery_4class_v1',
  inference_type: 'batch',
  duration_ms: 12.5,
  success: true,
  metadata: { trials: 40, accuracy: 0.81, mean_confidence: 0.74 },
  ...extra,
});

describe('POST /v1/analytics/log', () => {
  let t: TestApp;
  const clock = new FixedClock(new Date('2026-11-15T12:00:00Z'));
  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A key's stored events: the columns a body sets (the SQL NULL of an absent field is null on every database). */
  async function storedEvents(keyId: string): Promise<Array<Record<string, unknown>>> {
    const p = t.databaseKind === 'postgres' ? '$1' : '?';
    const rows: Array<Record<string, unknown>> = await t.app
      .get(DataSource)
      .query(
        `SELECT event_type, model_name, inference_type, duration_ms, success, error_message, metadata FROM analytics_events WHERE key_id = ${p}`,
        [keyId],
      );
    return rows.map((row) => ({ ...row }));
  }

  describe('202', () => {
    it('stores the event and answers the SPEC 4.5 body; each inference consumes exactly 1', async () => {
      const key = await t.issueKey({ licenseType: 'free' });
      const first = await t.post('/v1/analytics/log', inference(key.api_key));
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ logged: true, event_id: expect.stringMatching(/^evt_[0-9a-f]+$/), quota: { used: 1, remaining: 9999 } });
      const second = await t.post('/v1/analytics/log', inference(key.api_key));
      expect(second.body.quota).toEqual({ used: 2, remaining: 9998 });
      expect(second.body.event_id).not.toBe(first.body.event_id);
    });

    it('model_load and error events, validate and refresh consume nothing', async () => {
      const key = await t.issueKey({ licenseType: 'free' });
      for (const event_type of ['model_load', 'error']) {
        const res = await t.post('/v1/analytics/log', { api_key: key.api_key, event_type, error_message: 'boom' });
        expect(res.status).toBe(202);
        expect(res.body.quota).toEqual({ used: 0, remaining: 10000 });
      }
      await t.post('/v1/auth/validate', { api_key: key.api_key });
      await t.post('/v1/auth/refresh', { api_key: key.api_key });
      const validate = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(validate.body.quota.used).toBe(0);
    });

    it('takes the key from X-API-Key when the body has none, and the body first when both do', async () => {
      const key = await t.issueKey();
      const viaHeader = await t.post('/v1/analytics/log', { event_type: 'model_load' }, { 'x-api-key': key.api_key });
      expect(viaHeader.status).toBe(202);
      const bodyWins = await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'model_load' }, { 'x-api-key': 'garbage' });
      expect(bodyWins.status).toBe(202);
    });

    it('reports null remaining for an unlimited key while still counting used', async () => {
      const key = await t.issueKey({ licenseType: 'enterprise' });
      const res = await t.post('/v1/analytics/log', inference(key.api_key));
      expect(res.body.quota).toEqual({ used: 1, remaining: null });
    });

    it('ignores unknown fields and accepts nulls as absent', async () => {
      const key = await t.issueKey();
      const res = await t.post('/v1/analytics/log', {
        api_key: key.api_key,
        event_type: 'inference',
        surprise: [1, 2],
        model_name: null,
        metadata: null,
        success: null,
        inference_type: null,
        duration_ms: null,
        error_message: null,
      });
      expect(res.status).toBe(202);
      // the same event with those fields left out, through another key: both are stored and counted alike
      const other = await t.issueKey();
      expect((await t.post('/v1/analytics/log', { api_key: other.api_key, event_type: 'inference' })).status).toBe(202);
      const stored = await Promise.all([key, other].map((k) => storedEvents(k.key_id)));
      expect(stored[0]).toEqual([
        {
          event_type: 'inference',
          model_name: null,
          inference_type: null,
          duration_ms: null,
          success: null,
          error_message: null,
          metadata: null,
        },
      ]);
      expect(stored[0]).toEqual(stored[1]);
      const usage = await Promise.all([key, other].map(async (k) => (await t.admin('GET', `/admin/v1/usage?key_id=${k.key_id}`)).body));
      expect(usage[0]).toMatchObject({ by_model: {}, by_outcome: { success: 0, failure: 0, unreported: 1 } });
      const keyFree = (u: Record<string, unknown>) => ({
        ...u,
        by_key: undefined,
        key_id: undefined,
        license_id: undefined,
        recent_events: (u.recent_events as Array<Record<string, unknown>>).map((e) => ({ ...e, event_id: undefined, key_id: undefined })),
      });
      expect(keyFree(usage[0])).toEqual(keyFree(usage[1]));
    });

    it('answers at the unversioned alias', async () => {
      const key = await t.issueKey();
      const res = await t.post('/analytics/log', inference(key.api_key));
      expect(res.status).toBe(202);
    });
  });

  describe('400', () => {
    it.each([
      ['absent', {}],
      ['null', { event_type: null }],
      ['empty', { event_type: '' }],
      ['blank', { event_type: '   ' }],
    ])('MISSING_EVENT_TYPE when event_type is %s', async (_label, extra) => {
      const key = await t.issueKey();
      const res = await t.post('/v1/analytics/log', { api_key: key.api_key, ...extra });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Event type is required', code: 'MISSING_EVENT_TYPE', message: expect.any(String) });
    });

    it.each([42, 'Inference', ' inference', 'training', true, ['inference'], { type: 'inference' }])(
      'INVALID_EVENT_TYPE for %p',
      async (eventType) => {
        const key = await t.issueKey();
        const res = await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: eventType });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('INVALID_EVENT_TYPE');
      },
    );

    it.each([
      ['inference_type', 'realtime', 'realtime'],
      ['inference_type', 'a number', 1],
      ['duration_ms', 'negative', -1],
      ['duration_ms', 'a string', '12'],
      ['duration_ms', 'absurdly large', 1e13],
      ['success', 'a string', 'yes'],
      ['success', 'a number', 1],
      ['model_name', 'a number', 42],
      ['model_name', '201 characters', 'm'.repeat(201)],
      ['error_message', 'an object', { text: 'x' }],
      ['error_message', '2001 characters', 'e'.repeat(2001)],
      ['metadata', 'an array', [1, 2]],
      ['metadata', 'a string', 'trials=3'],
      ['metadata', 'over 16 KiB', { blob: 'x'.repeat(17 * 1024) }],
    ])('INVALID_REQUEST naming %s when it is %s', async (field, _label, value) => {
      const key = await t.issueKey();
      const res = await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference', [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.stringContaining(field) });
    });

    it('a rejected event is neither stored nor counted', async () => {
      const key = await t.issueKey();
      await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference', duration_ms: -5 });
      const res = await t.post('/v1/analytics/log', inference(key.api_key));
      expect(res.body.quota.used).toBe(1);
    });

    it('key errors win over event validation', async () => {
      expect((await t.post('/v1/analytics/log', { event_type: 'bogus' })).body.code).toBe('MISSING_KEY');
      expect((await t.post('/v1/analytics/log', { api_key: 'nope', event_type: 'bogus' })).body.code).toBe('INVALID_FORMAT');
      const unknown = await t.post('/v1/analytics/log', { api_key: `svc_live_${'1'.repeat(48)}` });
      expect(unknown.status).toBe(401);
      expect(unknown.body.code).toBe('INVALID_KEY');
      const expired = await t.issueKey({ expiresAt: new Date('2026-01-01T00:00:00Z') });
      expect((await t.post('/v1/analytics/log', { api_key: expired.api_key })).body.code).toBe('KEY_EXPIRED');
    });
  });

  describe('429 QUOTA_EXCEEDED', () => {
    it('100 concurrent inferences with 30 left: exactly 30 accepted, 70 refused, used ends at the limit', async () => {
      const key = await t.issueKey({ monthlyLimit: 30 });
      const answers = await Promise.all(Array.from({ length: 100 }, () => t.post('/v1/analytics/log', inference(key.api_key))));
      const accepted = answers.filter((a) => a.status === 202);
      const refused = answers.filter((a) => a.status === 429);
      expect(accepted).toHaveLength(30);
      expect(refused).toHaveLength(70);
      expect(new Set(accepted.map((a) => a.body.quota.used))).toEqual(new Set(Array.from({ length: 30 }, (_, i) => i + 1)));
      for (const r of refused) {
        expect(r.body).toEqual({
          error: 'Monthly quota exceeded',
          code: 'QUOTA_EXCEEDED',
          message: expect.stringContaining('2026-12-01T00:00:00Z'),
        });
        expect(Number(r.headers.get('retry-after'))).toBe((Date.parse('2026-12-01T00:00:00Z') - clock.now().getTime()) / 1000);
      }
      const shown = await t.admin('GET', `/admin/v1/keys/${key.key_id}`);
      expect(shown.body.quota).toMatchObject({ monthly_limit: 30, used: 30, remaining: 0 });
      const report = await t.admin('GET', `/admin/v1/usage?key_id=${key.key_id}`);
      expect(report.body.by_event_type.inference).toBe(30);
    });

    it('at the limit: validate answers 429 with Retry-After, refresh 200 with remaining 0, other events still work', async () => {
      const key = await t.issueKey({ monthlyLimit: 2 });
      await t.post('/v1/analytics/log', inference(key.api_key));
      await t.post('/v1/analytics/log', inference(key.api_key));
      const validate = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(validate.status).toBe(429);
      expect(validate.body).toEqual({
        error: 'Monthly quota exceeded',
        code: 'QUOTA_EXCEEDED',
        message: expect.stringContaining('2026-12-01T00:00:00Z'),
      });
      expect(Number(validate.headers.get('retry-after'))).toBeGreaterThan(0);
      const refresh = await t.post('/v1/auth/refresh', { api_key: key.api_key });
      expect(refresh.status).toBe(200);
      expect(refresh.body.quota).toEqual({ monthly_limit: 2, used: 2, remaining: 0, resets_at: '2026-12-01T00:00:00Z' });
      const load = await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'model_load' });
      expect(load.status).toBe(202);
      expect(load.body.quota).toEqual({ used: 2, remaining: 0 });
    });

    it('a zero limit refuses the first inference', async () => {
      const key = await t.issueKey({ monthlyLimit: 0 });
      const res = await t.post('/v1/analytics/log', inference(key.api_key));
      expect(res.status).toBe(429);
      expect((await t.post('/v1/auth/validate', { api_key: key.api_key })).status).toBe(429);
    });
  });

  describe('the monthly period', () => {
    it('a new calendar month starts from zero and past periods stay reported', async () => {
      clock.set(new Date('2026-12-31T23:59:59Z'));
      const key = await t.issueKey({ monthlyLimit: 1, expiresAt: new Date('2028-01-01T00:00:00Z') });
      expect((await t.post('/v1/analytics/log', inference(key.api_key))).status).toBe(202);
      const exhausted = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(exhausted.status).toBe(429);
      expect(exhausted.headers.get('retry-after')).toBe('1');
      clock.set(new Date('2027-01-01T00:00:00Z'));
      const fresh = await t.post('/v1/auth/validate', { api_key: key.api_key });
      expect(fresh.status).toBe(200);
      expect(fresh.body.quota).toEqual({ monthly_limit: 1, used: 0, remaining: 1, resets_at: '2027-02-01T00:00:00Z' });
      expect((await t.post('/v1/analytics/log', inference(key.api_key))).status).toBe(202);
      const december = await t.admin('GET', `/admin/v1/usage?key_id=${key.key_id}&period=2026-12`);
      expect(december.body).toEqual({
        key_id: key.key_id,
        license_id: key.key_id,
        period: '2026-12',
        used: 1,
        monthly_limit: 1,
        by_key: { [key.key_id]: 1 },
        by_event_type: { inference: 1, model_load: 0, error: 0 },
        by_model: { motor_imagery_4class_v1: 1 },
        by_outcome: { success: 1, failure: 0, unreported: 0 },
        // the license's latest events whatever the month asked, newest first (CONTRACT 22)
        recent_events: ['2027-01-01T00:00:00Z', '2026-12-31T23:59:59Z'].map((at) =>
          expect.objectContaining({ key_id: key.key_id, event_type: 'inference', received_at: at, occurred_at: at, batched: false }),
        ),
      });
      const january = await t.admin('GET', `/admin/v1/usage?key_id=${key.key_id}`);
      expect(january.body.period).toBe('2027-01');
      expect(january.body.used).toBe(1);
      clock.set(new Date('2026-11-15T12:00:00Z'));
    });
  });

  describe('storage', () => {
    it('stores the key id, never the key', async () => {
      const key = await t.issueKey();
      await t.post('/v1/analytics/log', inference(key.api_key, { error_message: 'fine' }));
      const p = t.databaseKind === 'postgres' ? '$1' : '?';
      const rows: Array<Record<string, unknown>> = await t.app
        .get(DataSource)
        .query(`SELECT event_type, model_name, success, duration_ms, key_id FROM analytics_events WHERE key_id = ${p}`, [key.key_id]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ event_type: 'inference', model_name: 'motor_imagery_4class_v1', duration_ms: 12.5 });
      expect([1, true]).toContain(rows[0].success);
      expect(await t.databaseContents()).not.toContain(key.api_key);
    });
  });
});

describe('GET /admin/v1/usage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts by event type, model and outcome', async () => {
    const key = await t.issueKey();
    await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference', model_name: 'a', success: true });
    await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference', model_name: 'b', success: false });
    await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'model_load', model_name: 'a' });
    await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'error', success: false, error_message: 'x' });
    const res = await t.admin('GET', `/admin/v1/usage?key_id=${key.key_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      used: 2,
      monthly_limit: 50000,
      by_event_type: { inference: 2, model_load: 1, error: 1 },
      by_model: { a: 2, b: 1 },
      by_outcome: { success: 1, failure: 2, unreported: 1 },
    });
  });

  it('400 for a bad period or a missing key_id, 404 for an unknown key, 401 without the token', async () => {
    const key = await t.issueKey();
    expect((await t.admin('GET', `/admin/v1/usage?key_id=${key.key_id}&period=2026-13`)).body.code).toBe('INVALID_REQUEST');
    expect((await t.admin('GET', `/admin/v1/usage`)).body.code).toBe('INVALID_REQUEST');
    const unknown = await t.admin('GET', '/admin/v1/usage?key_id=key_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('KEY_NOT_FOUND');
    expect((await t.get(`/admin/v1/usage?key_id=${key.key_id}`)).status).toBe(401);
  });
});
