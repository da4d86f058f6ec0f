import { DataSource } from 'typeorm';
import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';

/**
 * Events from the field (CONTRACT 22) over real HTTP, on the database the run
 * selects (SQLite, PostgreSQL or MySQL): idempotency keys on the single
 * endpoint (body and header), occurred_at, and POST /v1/analytics/batch.
 */
const NOW = new Date('2026-11-15T12:00:00.000Z');
const HOUR = 3_600_000;

const inference = (extra: Record<string, unknown> = {}) => ({
  event_type: 'inference',
  model_name: 'motor_imagery_4class_v1',
  inference_type: 'batch',
  duration_ms: 12.5,
  success: true,
  metadata: { trials: 40, accuracy: 0.81 },
  ...extra,
});
const modelLoad = (extra: Record<string, unknown> = {}) => ({ event_type: 'model_load', model_name: 'p300_speller_v2', ...extra });
const error = (extra: Record<string, unknown> = {}) => ({ event_type: 'error', error_message: 'amplifier disconnected', ...extra });

describe('events from the field: idempotency keys, occurred_at, batches (CONTRACT 22)', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);
  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const limited = (limit: number) => t.issueKey({ licenseType: 'research', monthlyLimit: limit });
  const p = (n: number) => (t.databaseKind === 'postgres' ? `$${n}` : '?');

  /** A key's stored events, in the order stored. */
  async function stored(
    keyId: string,
  ): Promise<Array<{ id: string; event_type: string; occurred_at: string; received_at: string; received_via: string }>> {
    const rows: Array<Record<string, unknown>> = await t.app
      .get(DataSource)
      .query(`SELECT id, event_type, occurred_at, received_at, received_via FROM analytics_events WHERE key_id = ${p(1)}`, [keyId]);
    return rows.map((row) => ({
      id: String(row.id),
      event_type: String(row.event_type),
      occurred_at: new Date(row.occurred_at as string).toISOString(),
      received_at: new Date(row.received_at as string).toISOString(),
      received_via: String(row.received_via),
    }));
  }

  async function used(licenseId: string): Promise<number> {
    const rows: Array<{ used: unknown }> = await t.app
      .get(DataSource)
      .query(`SELECT used FROM usage_counters WHERE license_id = ${p(1)}`, [licenseId]);
    return rows.reduce((sum, row) => sum + Number(row.used), 0);
  }

  async function quotaNotices(licenseId: string): Promise<string[]> {
    const rows: Array<{ type: string }> = await t.app
      .get(DataSource)
      .query(`SELECT type FROM webhook_events WHERE id LIKE ${p(1)} ORDER BY type`, [`quota.%:${licenseId}:%`]);
    return rows.map((row) => row.type);
  }

  describe('POST /v1/analytics/log with an idempotency key', () => {
    it('stores and charges a repeat once, by body and by header, answering the first event_id, duplicate and the current quota', async () => {
      const key = await limited(10);
      const first = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'evt-0001' }) });
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ logged: true, event_id: expect.stringMatching(/^evt_/), quota: { used: 1, remaining: 9 } });
      await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() });
      const again = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'evt-0001' }) });
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ logged: true, event_id: first.body.event_id, duplicate: true, quota: { used: 2, remaining: 8 } });
      const byHeader = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() }, { 'idempotency-key': 'evt-0001' });
      expect(byHeader.body).toMatchObject({ event_id: first.body.event_id, duplicate: true });
      const headerFirst = await t.post('/v1/analytics/log', { api_key: key.api_key, ...modelLoad() }, { 'idempotency-key': 'hdr-1' });
      const headerAgain = await t.post('/v1/analytics/log', { api_key: key.api_key, ...modelLoad() }, { 'idempotency-key': 'hdr-1' });
      expect(headerAgain.body).toMatchObject({ event_id: headerFirst.body.event_id, duplicate: true });
      expect(await stored(key.key_id)).toHaveLength(3);
      expect(await used(key.key_id)).toBe(2);
    });

    it('lets the body win over the header', async () => {
      const key = await limited(10);
      const first = await t.post(
        '/v1/analytics/log',
        { api_key: key.api_key, ...inference({ idempotency_key: 'body-key' }) },
        { 'idempotency-key': 'header-key' },
      );
      const byBody = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'body-key' }) });
      const byHeader = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() }, { 'idempotency-key': 'header-key' });
      expect(byBody.body).toMatchObject({ event_id: first.body.event_id, duplicate: true });
      expect(byHeader.body.duplicate).toBeUndefined();
    });

    it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key with other fields, storing nothing', async () => {
      const key = await limited(10);
      await t.post('/v1/analytics/log', {
        api_key: key.api_key,
        ...inference({ idempotency_key: 'k1', occurred_at: '2026-11-15T11:00:00Z' }),
      });
      for (const other of [
        inference({ idempotency_key: 'k1', model_name: 'other_v1', occurred_at: '2026-11-15T11:00:00Z' }),
        inference({ idempotency_key: 'k1', occurred_at: '2026-11-15T11:00:01Z' }),
        inference({ idempotency_key: 'k1', occurred_at: '2026-11-15T11:00:00Z', metadata: { trials: 41, accuracy: 0.81 } }),
        modelLoad({ idempotency_key: 'k1', occurred_at: '2026-11-15T11:00:00Z' }),
      ]) {
        const res = await t.post('/v1/analytics/log', { api_key: key.api_key, ...other });
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', error: 'Idempotency key reused' });
      }
      // the same event, its time written with another offset, is a repeat
      const same = await t.post('/v1/analytics/log', {
        api_key: key.api_key,
        ...inference({ idempotency_key: 'k1', occurred_at: '2026-11-15T13:00:00+02:00', metadata: { accuracy: 0.81, trials: 40 } }),
      });
      expect(same.body.duplicate).toBe(true);
      expect(await stored(key.key_id)).toHaveLength(1);
    });

    it('judges a refused event anew when it is retried (429, then accepted once quota is back)', async () => {
      const key = await limited(1);
      await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() });
      const refused = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'late' }) });
      expect(refused.status).toBe(429);
      expect((await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { monthly_limit: 2 })).status).toBe(200);
      const retried = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'late' }) });
      expect(retried.status).toBe(202);
      expect(retried.body.duplicate).toBeUndefined();
      expect(retried.body.quota).toEqual({ used: 2, remaining: 0 });
    });

    it('keeps the key per license: a rotated key sees it, another license does not', async () => {
      const key = await limited(10);
      const first = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'shared' }) });
      const rotated = await t.admin('POST', `/admin/v1/keys/${key.key_id}/rotate`, {});
      expect(rotated.status).toBe(200);
      const successor = rotated.body as { api_key: string };
      const repeat = await t.post('/v1/analytics/log', { api_key: successor.api_key, ...inference({ idempotency_key: 'shared' }) });
      expect(repeat.body).toMatchObject({ event_id: first.body.event_id, duplicate: true, quota: { used: 1 } });
      const other = await limited(10);
      const elsewhere = await t.post('/v1/analytics/log', { api_key: other.api_key, ...inference({ idempotency_key: 'shared' }) });
      expect(elsewhere.body.duplicate).toBeUndefined();
      expect(elsewhere.body.event_id).not.toBe(first.body.event_id);
    });

    it('stores and charges once when the same event is sent twenty times at once', async () => {
      const key = await limited(100);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: 'burst' }) })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
      expect(new Set(answers.map((a) => a.body.event_id)).size).toBe(1);
      expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(19);
      expect(await stored(key.key_id)).toHaveLength(1);
      expect(await used(key.key_id)).toBe(1);
    });

    it.each([
      ['empty', ''],
      ['too long', 'k'.repeat(129)],
      ['a space', 'has space'],
      ['a slash', 'a/b'],
      ['a number', 42],
    ])('refuses an idempotency_key that is %s (400 naming the field)', async (_, value) => {
      const key = await limited(10);
      const res = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: value }) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('idempotency_key') });
    });

    it('refuses a malformed Idempotency-Key header (400 naming it)', async () => {
      const key = await limited(10);
      const res = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() }, { 'idempotency-key': 'no spaces allowed' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('Idempotency-Key') });
    });
  });

  it('never logs an idempotency key or the api key, whatever the answer', async () => {
    const key = await limited(1);
    const secret = 'idem-0192f1c4-never-logged';
    await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ idempotency_key: secret }) });
    await t.post('/v1/analytics/log', { api_key: key.api_key, ...modelLoad({ idempotency_key: secret }) }); // 409
    await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() }, { 'idempotency-key': `${secret}-2` }); // 429
    await t.post('/v1/analytics/batch', {
      api_key: key.api_key,
      events: [inference({ idempotency_key: `${secret}-3` }), { event_type: 'x' }],
    });
    await eventually(() => t.logger.requestLines().some((line) => line.url === '/v1/analytics/batch'));
    const lines = t.logger.lines.join('\n');
    expect(lines).not.toContain(secret);
    expect(lines).not.toContain(key.api_key);
  });

  describe('occurred_at', () => {
    it('stores it beside the time received, and consumes in the period received', async () => {
      const key = await limited(10);
      const day = new Date(NOW.getTime() - 20 * 24 * HOUR);
      const res = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ occurred_at: '2026-10-26T13:00:00+01:00' }) });
      expect(res.status).toBe(202);
      await t.post('/v1/analytics/log', { api_key: key.api_key, ...modelLoad() });
      const rows = await stored(key.key_id);
      expect(rows.map((r) => [r.occurred_at, r.received_at])).toEqual(
        expect.arrayContaining([
          ['2026-10-26T12:00:00.000Z', NOW.toISOString()],
          [NOW.toISOString(), NOW.toISOString()],
        ]),
      );
      expect(day.getTime()).toBeLessThan(NOW.getTime());
      const counters: Array<{ period: string; used: unknown }> = await t.app
        .get(DataSource)
        .query(`SELECT period, used FROM usage_counters WHERE license_id = ${p(1)}`, [key.key_id]);
      expect(counters.map((c) => [c.period, Number(c.used)])).toEqual([['2026-11', 1]]);
    });

    it.each([
      ['35 days back', new Date(NOW.getTime() - 35 * 24 * HOUR).toISOString(), 202],
      ['5 minutes ahead', new Date(NOW.getTime() + 5 * 60_000).toISOString(), 202],
      ['35 days and a second back', new Date(NOW.getTime() - 35 * 24 * HOUR - 1000).toISOString(), 400],
      ['5 minutes and a second ahead', new Date(NOW.getTime() + 5 * 60_000 + 1000).toISOString(), 400],
      ['without an offset', '2026-11-15T11:00:00', 400],
      ['not a date', 'yesterday', 400],
      ['an impossible day', '2026-02-30T00:00:00Z', 400],
      ['a number', 1763200000, 400],
    ])('%s: %s answers %i', async (_, occurred_at, status) => {
      const key = await limited(10);
      const res = await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference({ occurred_at }) });
      expect(res.status).toBe(status);
      if (status === 400) expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('occurred_at') });
    });
  });

  describe('POST /v1/analytics/batch', () => {
    const batch = (apiKey: string, events: unknown[]) => t.post('/v1/analytics/batch', { api_key: apiKey, events });

    it('answers one result per event in order, commits the accepted ones, and marks them as batched', async () => {
      const key = await limited(10);
      const res = await batch(key.api_key, [
        inference({ idempotency_key: 'b-1' }),
        modelLoad(),
        error({ occurred_at: '2026-11-15T10:00:00Z' }),
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        results: [
          { index: 0, status: 202, event_id: expect.stringMatching(/^evt_/) },
          { index: 1, status: 202, event_id: expect.stringMatching(/^evt_/) },
          { index: 2, status: 202, event_id: expect.stringMatching(/^evt_/) },
        ],
        accepted: 3,
        duplicates: 0,
        refused: 0,
        quota: { used: 1, remaining: 9 },
      });
      expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
      const rows = await stored(key.key_id);
      expect(rows.map((r) => r.received_via)).toEqual(['batch', 'batch', 'batch']);
      expect(rows.find((r) => r.event_type === 'error')?.occurred_at).toBe('2026-11-15T10:00:00.000Z');
    });

    it("lists the license's recent events with both times and how they came, in the operators' usage reports", async () => {
      const key = await limited(100);
      await t.post('/v1/analytics/log', { api_key: key.api_key, ...modelLoad() });
      clock.set(new Date(NOW.getTime() + 1000));
      try {
        await batch(key.api_key, [inference({ occurred_at: '2026-11-14T08:00:00+01:00' })]);
      } finally {
        clock.set(NOW);
      }
      const expected = [
        { event_type: 'inference', batched: true, received_at: '2026-11-15T12:00:01Z', occurred_at: '2026-11-14T07:00:00Z' },
        { event_type: 'model_load', batched: false, received_at: '2026-11-15T12:00:00Z', occurred_at: '2026-11-15T12:00:00Z' },
      ].map((e) => ({ ...e, event_id: expect.stringMatching(/^evt_/), key_id: key.key_id, model_name: expect.any(String) }));
      const usage = await t.admin('GET', `/admin/v1/usage?key_id=${key.key_id}`);
      expect(usage.body.recent_events).toEqual(expected);
      const daily = await t.admin('GET', `/admin/v1/usage/daily?key_id=${key.key_id}`);
      expect(daily.body.recent_events).toEqual(expected);
    });

    it('judges events in order at the quota boundary: later inferences 429, model_load and error still accepted', async () => {
      const key = await limited(3);
      await t.post('/v1/analytics/log', { api_key: key.api_key, ...inference() });
      const res = await batch(key.api_key, [inference(), modelLoad(), inference(), inference(), error(), inference()]);
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([202, 202, 202, 429, 202, 429]);
      expect(res.body.results[3]).toMatchObject({
        index: 3,
        code: 'QUOTA_EXCEEDED',
        error: 'Monthly quota exceeded',
        message: expect.any(String),
      });
      expect(res.body).toMatchObject({ accepted: 4, duplicates: 0, refused: 2, quota: { used: 3, remaining: 0 } });
      expect(await stored(key.key_id)).toHaveLength(5);
      expect(await used(key.key_id)).toBe(3);
    });

    it('replays a batch exactly: every event a duplicate with its first id, nothing stored or charged again', async () => {
      const key = await limited(100);
      const events = Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0 ? modelLoad({ idempotency_key: `r-${i}` }) : inference({ idempotency_key: `r-${i}` }),
      );
      const first = await batch(key.api_key, events);
      expect(first.body).toMatchObject({ accepted: 30, duplicates: 0, refused: 0, quota: { used: 20 } });
      const replay = await batch(key.api_key, events);
      expect(replay.body).toMatchObject({ accepted: 0, duplicates: 30, refused: 0, quota: { used: 20 } });
      expect(replay.body.results.map((r: { event_id: string }) => r.event_id)).toEqual(
        first.body.results.map((r: { event_id: string }) => r.event_id),
      );
      expect(replay.body.results.every((r: { duplicate?: boolean }) => r.duplicate === true)).toBe(true);
      expect(await stored(key.key_id)).toHaveLength(30);
      expect(await used(key.key_id)).toBe(20);
    });

    it('gives one bad event its own 400 while the others proceed; a repeat within the batch answers as its first', async () => {
      const key = await limited(10);
      const res = await batch(key.api_key, [
        inference({ idempotency_key: 'same' }),
        { event_type: 'telepathy' },
        inference({ model_name: 'x'.repeat(201) }),
        'not an object',
        inference({ idempotency_key: 'same' }),
        inference({ idempotency_key: 'same', success: false }),
        {},
        modelLoad(),
      ]);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: number; code?: string }) => r.code ?? r.status)).toEqual([
        202,
        'INVALID_EVENT_TYPE',
        'INVALID_REQUEST',
        'INVALID_REQUEST',
        202,
        'IDEMPOTENCY_KEY_REUSED',
        'MISSING_EVENT_TYPE',
        202,
      ]);
      expect(res.body.results[2].message).toContain('model_name');
      expect(res.body.results[4]).toEqual({ index: 4, status: 202, event_id: res.body.results[0].event_id, duplicate: true });
      expect(res.body).toMatchObject({ accepted: 2, duplicates: 1, refused: 5, quota: { used: 1 } });
    });

    it('raises quota.warning and quota.exhausted once each however a batch crosses them', async () => {
      const key = await limited(10);
      await batch(
        key.api_key,
        Array.from({ length: 12 }, () => inference()),
      );
      await batch(
        key.api_key,
        Array.from({ length: 3 }, () => inference()),
      );
      expect(await quotaNotices(key.key_id)).toEqual(['quota.exhausted', 'quota.warning']);
      const nothing = await limited(10);
      await batch(
        nothing.api_key,
        Array.from({ length: 5 }, () => inference()),
      );
      expect(await quotaNotices(nothing.key_id)).toEqual([]);
    });

    it('answers the request as a whole for a malformed list or a key error', async () => {
      const key = await limited(10);
      const bad = async (body: unknown) => t.post('/v1/analytics/batch', body);
      expect((await bad({ api_key: key.api_key, events: [] })).body).toMatchObject({
        code: 'INVALID_REQUEST',
        message: expect.stringContaining('events'),
      });
      expect((await bad({ api_key: key.api_key, events: 'nope' })).body).toMatchObject({ code: 'INVALID_REQUEST' });
      expect((await bad({ api_key: key.api_key })).body).toMatchObject({ code: 'INVALID_REQUEST' });
      const tooMany = await bad({ api_key: key.api_key, events: Array.from({ length: 101 }, () => modelLoad()) });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('1 to 100') });
      expect((await bad({ events: [modelLoad()] })).body).toMatchObject({ code: 'MISSING_KEY' });
      expect((await bad({ api_key: 'svc_live_nope', events: [modelLoad()] })).status).toBeGreaterThanOrEqual(400);
      const viaHeader = await t.post('/v1/analytics/batch', { events: [modelLoad()] }, { 'x-api-key': key.api_key });
      expect(viaHeader.status).toBe(200);
      expect(await stored(key.key_id)).toHaveLength(1);
    });

    it('takes events at the metadata limit up to 1 MiB, refuses more with 413 (never a 500), and every other route keeps 64 KiB', async () => {
      const key = await limited(1000);
      // each event's metadata exactly 16 KiB of JSON: sixty fit in 1 MiB, a hundred do not
      const metadata = { notes: 'n'.repeat(16 * 1024 - '{"notes":""}'.length) };
      expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(16 * 1024);
      const full = (n: number) => Array.from({ length: n }, (_, i) => inference({ metadata, idempotency_key: `full-${i}` }));
      expect(Buffer.byteLength(JSON.stringify({ api_key: key.api_key, events: full(60) }))).toBeLessThan(1024 * 1024);
      const fits = await batch(key.api_key, full(60));
      expect(fits.status).toBe(200);
      expect(fits.body).toMatchObject({ accepted: 60, refused: 0 });
      const hundred = await batch(key.api_key, full(100));
      expect(hundred.status).toBe(413);
      expect(hundred.body).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: expect.stringContaining('1 MiB for POST /v1/analytics/batch'),
      });
      const base = JSON.stringify({ api_key: key.api_key, events: [modelLoad()], pad: '' });
      const over = base.replace('"pad":""', `"pad":"${'p'.repeat(1024 * 1024 + 1 - base.length)}"`);
      expect(Buffer.byteLength(over)).toBe(1024 * 1024 + 1);
      const refused = await t.request('POST', '/v1/analytics/batch', { raw: over, headers: { 'content-type': 'application/json' } });
      expect(refused.status).toBe(413);
      expect(refused.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      const exact = over.replace('"pad":"p', '"pad":"');
      expect((await t.request('POST', '/v1/analytics/batch', { raw: exact, headers: { 'content-type': 'application/json' } })).status).toBe(
        200,
      );
      const single = await t.request('POST', '/v1/analytics/log', {
        raw: JSON.stringify({ api_key: key.api_key, ...modelLoad(), pad: 'p'.repeat(64 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(single.status).toBe(413);
    });

    it('commits none of a batch whose write fails', async () => {
      const key = await limited(100);
      const ds = t.app.get(DataSource);
      // a stored event whose id the next batch would reuse cannot exist, so make the event insert fail another way:
      // drop the events table's write for a moment by renaming it, then restore it
      await ds.query(
        t.databaseKind === 'mysql'
          ? 'RENAME TABLE analytics_events TO analytics_events_away'
          : 'ALTER TABLE analytics_events RENAME TO analytics_events_away',
      );
      try {
        const res = await batch(key.api_key, [inference({ idempotency_key: 'fault-1' }), inference({ idempotency_key: 'fault-2' })]);
        expect(res.status).toBeGreaterThanOrEqual(500);
        expect(res.body).toMatchObject({ code: expect.stringMatching(/SERVER_ERROR|SERVICE_UNAVAILABLE/) });
      } finally {
        await ds.query(
          t.databaseKind === 'mysql'
            ? 'RENAME TABLE analytics_events_away TO analytics_events'
            : 'ALTER TABLE analytics_events_away RENAME TO analytics_events',
        );
      }
      expect(await used(key.key_id)).toBe(0);
      const retry = await batch(key.api_key, [inference({ idempotency_key: 'fault-1' }), inference({ idempotency_key: 'fault-2' })]);
      expect(retry.body).toMatchObject({ accepted: 2, duplicates: 0, quota: { used: 2 } });
    });
  });
});
