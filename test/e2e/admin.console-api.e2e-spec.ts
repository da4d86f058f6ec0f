import { FixedClock } from '@svc/domain';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

/**
 * The admin API's console reads (CONTRACT 17): GET /admin/v1/keys (filters, cursor paging),
 * /admin/v1/usage/daily, /admin/v1/overview and the paged /admin/v1/audit, over real HTTP on
 * the project's database. Data is seeded through the admin API and the analytics endpoint, on
 * the test clock.
 */

const NOW = new Date('2026-05-20T12:00:00.000Z');
const DAY_MS = 86_400_000;
const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const UNAUTHORIZED = { error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <admin token>' };
const KEY_NOT_FOUND = { error: 'API key not found', code: 'KEY_NOT_FOUND' };
const UNKNOWN_KEY = 'key_000000000000000000000000';

function invalidRequestNaming(field: string): object {
  return { error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.stringContaining(field) };
}

const inference = (apiKey: string, extra: Record<string, unknown> = {}) => ({
  api_key: apiKey,
  event_type: 'inference',
  model_name: 'motor_imagery_4class_v1',
  inference_type: 'batch',
  success: true,
  ...extra,
});

interface Issued {
  key_id: string;
  api_key: string;
  user_id: string;
}

describe('Admin API: console reads (/admin/v1)', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(NOW));

  async function issue(body: Record<string, unknown>): Promise<Issued> {
    const res = await t.admin('POST', '/admin/v1/keys', { license_type: 'research', ...body });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function get(path: string): Promise<HttpAnswer> {
    const res = await t.admin('GET', path);
    if (res.status === 200) expect(res.headers.get('cache-control')).toBe('no-store');
    return res;
  }

  async function log(apiKey: string, at: string, extra: Record<string, unknown> = {}): Promise<void> {
    clock.set(new Date(at));
    const res = await t.post('/v1/analytics/log', inference(apiKey, extra));
    expect(res.status).toBe(202);
  }

  describe('GET /admin/v1/keys', () => {
    const email = `keys-${Date.now()}@example.org`;
    let keys: Issued[] = [];

    beforeAll(async () => {
      keys = [];
      for (let i = 0; i < 5; i++) {
        clock.set(new Date(NOW.getTime() + i * 1000));
        const holder = i === 0 ? { email } : { user_id: keys[0].user_id };
        keys.push(await issue({ ...holder, license_type: i % 2 === 0 ? 'free' : 'commercial', environment: i === 4 ? 'test' : 'live' }));
      }
      clock.set(NOW);
    });

    it('lists the matching keys newest first, in the documented shape, never the key nor its digest', async () => {
      const res = await get(`/admin/v1/keys?email=${encodeURIComponent(email)}`);
      expect(res.status).toBe(200);
      expect(res.body.next_cursor).toBeNull();
      expect(res.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual(keys.map((k) => k.key_id).reverse());
      expect(res.body.keys[4]).toEqual({
        key_id: keys[0].key_id,
        user_id: keys[0].user_id,
        email,
        prefix: keys[0].api_key.slice(0, 12),
        license_type: 'free',
        environment: 'live',
        status: 'active',
        created_at: '2026-05-20T12:00:00Z',
        expires_at: '2027-05-20T12:00:00Z',
        revoked_at: null,
        monthly_limit: 10000,
        monthly_limit_source: 'tier',
      });
      for (const key of keys) expect(res.text).not.toContain(key.api_key);
      expect(res.text).not.toMatch(/[0-9a-f]{64}/);
    });

    it('filters by prefix (the start the customer pastes), user, tier and status', async () => {
      const mine = keys[2];
      const byPrefix = await get(`/admin/v1/keys?prefix=${mine.api_key.slice(0, 12)}&email=${encodeURIComponent(email)}`);
      expect(byPrefix.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([mine.key_id]);
      const testKeys = await get(`/admin/v1/keys?prefix=svc_test_&email=${encodeURIComponent(email)}`);
      expect(testKeys.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([keys[4].key_id]);
      const byUser = await get(`/admin/v1/keys?user_id=${keys[0].user_id}&license_type=commercial`);
      expect(byUser.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([keys[3].key_id, keys[1].key_id]);

      await t.admin('POST', `/admin/v1/keys/${keys[0].key_id}/revoke`, { reason: 'test' });
      await t.admin('PATCH', `/admin/v1/keys/${keys[1].key_id}`, { expires_at: '2026-05-20T12:00:00Z' });
      const q = `email=${encodeURIComponent(email)}`;
      const ids = async (query: string) => (await get(`/admin/v1/keys?${q}&${query}`)).body.keys.map((k: { key_id: string }) => k.key_id);
      expect(await ids('status=revoked')).toEqual([keys[0].key_id]);
      expect(await ids('status=expired')).toEqual([keys[1].key_id]);
      expect(await ids('status=active')).toEqual([keys[4].key_id, keys[3].key_id, keys[2].key_id]);
      const revoked = (await get(`/admin/v1/keys?${q}&status=revoked`)).body.keys[0];
      expect(revoked).toMatchObject({ status: 'revoked', revoked_at: expect.stringMatching(ISO_SECOND) });
      expect((await get('/admin/v1/keys?email=nobody%40example.org')).body).toEqual({ keys: [], next_cursor: null });
    });

    it('finds the holder by e-mail in any case, and by the start of it (on users.email_lower)', async () => {
      const ids = async (query: string) =>
        (await get(`/admin/v1/keys?${query}&limit=200`)).body.keys.map((k: { key_id: string }) => k.key_id);
      const all = keys.map((k) => k.key_id).reverse();
      expect(await ids(`email=${encodeURIComponent(email.toUpperCase())}`)).toEqual(all);
      const typed = await issue({ email: `Ada.${email.replace('keys-', 'Lovelace-')}`.replace('example.org', 'Example.ORG') });
      const lower = `ada.${email.replace('keys-', 'lovelace-')}`;
      expect(await ids(`email=${encodeURIComponent(lower)}`)).toEqual([typed.key_id]);
      expect(await ids(`email_prefix=${encodeURIComponent('ADA.LOVELACE-')}`)).toEqual([typed.key_id]);
      expect(await ids(`email_prefix=${encodeURIComponent(email.slice(0, 10).toUpperCase())}`)).toEqual(expect.arrayContaining(all));
      expect(await ids(`email_prefix=${encodeURIComponent(email)}&license_type=commercial`)).toEqual([keys[3].key_id, keys[1].key_id]);
      expect(await ids('email_prefix=nobody.at.all')).toEqual([]);
      const shown = await get(`/admin/v1/keys?email=${encodeURIComponent(lower)}`);
      expect(shown.body.keys[0].email).toBe(`Ada.${email.replace('keys-', 'Lovelace-')}`.replace('example.org', 'Example.ORG')); // as typed
      await t.admin('POST', `/admin/v1/keys/${typed.key_id}/revoke`, {});
    });

    it('pages with an opaque cursor; keys issued between pages never shift nor repeat later pages', async () => {
      const q = `email=${encodeURIComponent(email)}&limit=2`;
      const first = await get(`/admin/v1/keys?${q}`);
      expect(first.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([keys[4].key_id, keys[3].key_id]);
      expect(first.body.next_cursor).toEqual(expect.any(String));

      clock.set(new Date(NOW.getTime() + 60_000));
      const newer = await issue({ email });
      clock.set(new Date(NOW.getTime() + 2000)); // as old as keys[2]: its id decides its place
      const sameTime = await issue({ email });

      const second = await get(`/admin/v1/keys?${q}&cursor=${first.body.next_cursor}`);
      const third = await get(`/admin/v1/keys?${q}&cursor=${second.body.next_cursor}`);
      const later = [...second.body.keys, ...third.body.keys].map((k: { key_id: string }) => k.key_id);
      const expected = [keys[2].key_id, sameTime.key_id].sort().reverse();
      expect(later.slice(0, 2)).toEqual(expected);
      expect(later.slice(2)).toEqual([keys[1].key_id, keys[0].key_id]);
      expect(third.body.next_cursor).toBeNull();
      expect(later).not.toContain(newer.key_id);

      const all = await get(`/admin/v1/keys?email=${encodeURIComponent(email)}&limit=200`);
      expect(all.body.keys[0].key_id).toBe(newer.key_id);
      expect(all.body.keys).toHaveLength(7);
    });

    it('answers 50 keys by default, and at most 200', async () => {
      const res = await get('/admin/v1/keys');
      expect(res.status).toBe(200);
      expect(res.body.keys.length).toBeLessThanOrEqual(50);
    });

    describe('400 INVALID_REQUEST', () => {
      it.each([
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['limit=', 'limit'],
        ['cursor=not-a-cursor!', 'cursor'],
        ['cursor=bm90IGpzb24', 'cursor'],
        ['license_type=gold', 'license_type'],
        ['status=sleeping', 'status'],
        ['prefix=svc_live_abcdef', 'prefix'],
        ['prefix=svc%25', 'prefix'],
        ['email=a@example.org&email=b@example.org', 'email'],
        ['email_prefix=a&email_prefix=b', 'email_prefix'],
        [`email_prefix=${'a'.repeat(255)}`, 'email_prefix'],
      ])('%s', async (query, field) => {
        const res = await get(`/admin/v1/keys?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming(field));
      });

      it('refuses an audit cursor on the keys list', async () => {
        const audit = await get('/admin/v1/audit?limit=1');
        const res = await get(`/admin/v1/keys?cursor=${audit.body.next_cursor}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming('cursor'));
      });
    });
  });

  describe('GET /admin/v1/usage/daily', () => {
    let key: Issued;
    let quiet: Issued;

    beforeAll(async () => {
      key = await issue({ email: 'daily@example.org', license_type: 'research' });
      quiet = await issue({ email: 'quiet@example.org', license_type: 'free' });
      await log(key.api_key, '2026-05-01T00:00:00.000Z');
      await log(key.api_key, '2026-05-01T23:59:59.999Z', { success: false });
      await log(key.api_key, '2026-05-03T10:00:00.000Z', { model_name: 'p300_speller_v2' });
      await log(key.api_key, '2026-05-03T11:00:00.000Z', { event_type: 'model_load', inference_type: undefined, success: undefined });
      await log(key.api_key, '2026-05-20T11:59:00.000Z');
      await log(key.api_key, '2026-04-30T23:59:59.999Z');
      clock.set(NOW);
    });

    it('answers every day of the current month up to today by default, 0 on days without events', async () => {
      const res = await get(`/admin/v1/usage/daily?key_id=${key.key_id}`);
      expect(res.status).toBe(200);
      expect(res.body.key_id).toBe(key.key_id);
      expect(res.body.from).toBe('2026-05-01');
      expect(res.body.to).toBe('2026-05-20');
      expect(res.body.days).toHaveLength(20);
      expect(res.body.days.slice(0, 4)).toEqual([
        { date: '2026-05-01', inferences: 2, by_key: { [key.key_id]: 2 } },
        { date: '2026-05-02', inferences: 0, by_key: {} },
        { date: '2026-05-03', inferences: 1, by_key: { [key.key_id]: 1 } },
        { date: '2026-05-04', inferences: 0, by_key: {} },
      ]);
      expect(res.body.days[19]).toEqual({ date: '2026-05-20', inferences: 1, by_key: { [key.key_id]: 1 } });
      expect(res.body.by_event_type).toEqual({ inference: 4, model_load: 1, error: 0 });
      expect(res.body.by_model).toEqual({ motor_imagery_4class_v1: 4, p300_speller_v2: 1 });
      expect(res.body.by_outcome).toEqual({ success: 3, failure: 1, unreported: 1 });
    });

    it('answers the range asked for, both ends included, UTC days by received time', async () => {
      const res = await get(`/admin/v1/usage/daily?key_id=${key.key_id}&from=2026-04-30&to=2026-05-02`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        license_id: key.key_id,
        key_id: key.key_id,
        keys: [
          {
            key_id: key.key_id,
            prefix: key.api_key.slice(0, 12),
            status: 'active',
            created_at: expect.stringMatching(ISO_SECOND),
            expires_at: expect.stringMatching(ISO_SECOND),
            revoked_at: null,
            rotated_from: null,
            rotated_to: null,
          },
        ],
        from: '2026-04-30',
        to: '2026-05-02',
        days: [
          { date: '2026-04-30', inferences: 1, by_key: { [key.key_id]: 1 } },
          { date: '2026-05-01', inferences: 2, by_key: { [key.key_id]: 2 } },
          { date: '2026-05-02', inferences: 0, by_key: {} },
        ],
        by_key: { [key.key_id]: 3 },
        by_event_type: { inference: 3, model_load: 0, error: 0 },
        by_model: { motor_imagery_4class_v1: 3 },
        by_outcome: { success: 2, failure: 1, unreported: 0 },
        // the license's latest events whatever the range (CONTRACT 22): all six of this key, newest received first
        recent_events: expect.any(Array),
      });
      const recent = res.body.recent_events as Array<{ received_at: string; key_id: string; batched: boolean }>;
      expect(recent).toHaveLength(6);
      expect(recent.every((e) => e.key_id === key.key_id && e.batched === false)).toBe(true);
      expect(recent.map((e) => e.received_at)).toEqual([...recent.map((e) => e.received_at)].sort().reverse());
    });

    it('answers zeros for a key without events, and up to 366 days', async () => {
      const res = await get(`/admin/v1/usage/daily?key_id=${quiet.key_id}&from=2025-05-20&to=2026-05-20`);
      expect(res.status).toBe(200);
      expect(res.body.days).toHaveLength(366);
      expect(res.body.days.every((d: { inferences: number }) => d.inferences === 0)).toBe(true);
      expect(res.body.by_event_type).toEqual({ inference: 0, model_load: 0, error: 0 });
      expect(res.body.by_model).toEqual({});
    });

    it("answers a license's days split by key, asked by either key or by the license: the days add up to the quota's used (CONTRACT 16)", async () => {
      const first = await issue({ email: 'chain@example.org', license_type: 'free', monthly_limit: 100 });
      await log(first.api_key, '2026-05-10T10:00:00.000Z');
      await log(first.api_key, '2026-05-11T10:00:00.000Z', { event_type: 'model_load', inference_type: undefined });
      clock.set(new Date('2026-05-12T00:00:00.000Z'));
      const rotated = await t.admin('POST', `/admin/v1/keys/${first.key_id}/rotate`, { grace_seconds: 3600 });
      expect(rotated.status).toBe(200);
      const second = rotated.body as { key_id: string; api_key: string };
      await log(first.api_key, '2026-05-12T00:30:00.000Z'); // in its grace
      await log(second.api_key, '2026-05-12T10:00:00.000Z');
      await log(second.api_key, '2026-05-13T10:00:00.000Z');
      clock.set(NOW);

      const bySecond = await get(`/admin/v1/usage/daily?key_id=${second.key_id}&from=2026-05-10&to=2026-05-13`);
      expect(bySecond.status).toBe(200);
      expect(bySecond.body.license_id).toBe(first.key_id);
      expect(bySecond.body.key_id).toBe(second.key_id);
      expect(
        bySecond.body.keys.map((k: { key_id: string; status: string; rotated_to: string | null }) => [k.key_id, k.status, k.rotated_to]),
      ).toEqual([
        [first.key_id, 'expired', second.key_id],
        [second.key_id, 'active', null],
      ]);
      expect(bySecond.body.keys[0].expires_at).toBe('2026-05-12T01:00:00Z'); // the end of its grace
      expect(bySecond.body.days).toEqual([
        { date: '2026-05-10', inferences: 1, by_key: { [first.key_id]: 1 } },
        { date: '2026-05-11', inferences: 0, by_key: {} },
        { date: '2026-05-12', inferences: 2, by_key: { [first.key_id]: 1, [second.key_id]: 1 } },
        { date: '2026-05-13', inferences: 1, by_key: { [second.key_id]: 1 } },
      ]);
      expect(bySecond.body.by_key).toEqual({ [first.key_id]: 3, [second.key_id]: 2 });
      const byLicense = await get(`/admin/v1/usage/daily?license_id=${first.key_id}&from=2026-05-10&to=2026-05-13`);
      expect(byLicense.body).toEqual({ ...bySecond.body, key_id: null });
      const byFirst = await get(`/admin/v1/usage/daily?key_id=${first.key_id}&from=2026-05-10&to=2026-05-13`);
      expect(byFirst.body).toEqual({ ...bySecond.body, key_id: first.key_id });

      // the month's days add up to the gauge's used (inferences are what the quota counts), by the license's usage report too
      const month = await get(`/admin/v1/usage/daily?license_id=${first.key_id}`);
      const shown = await t.admin('GET', `/admin/v1/keys/${second.key_id}`);
      const total = month.body.days.reduce((sum: number, d: { inferences: number }) => sum + d.inferences, 0);
      expect(total).toBe(4);
      expect(shown.body.quota.used).toBe(total);
      const report = await t.admin('GET', `/admin/v1/usage?license_id=${first.key_id}&period=2026-05`);
      expect(report.body).toMatchObject({ key_id: second.key_id, license_id: first.key_id, used: 4, monthly_limit: 100 });
      expect(report.body.by_key).toEqual({ [first.key_id]: 3, [second.key_id]: 2 });
    });

    it('404 KEY_NOT_FOUND for a license without keys; 400 for both key_id and license_id', async () => {
      const unknown = await get(`/admin/v1/usage/daily?license_id=${UNKNOWN_KEY}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No API key belongs to this license', code: 'KEY_NOT_FOUND' });
      const both = await get(`/admin/v1/usage/daily?license_id=${key.key_id}&key_id=${key.key_id}`);
      expect(both.status).toBe(400);
      expect(both.body).toEqual(invalidRequestNaming('license_id'));
      const usage = await get(`/admin/v1/usage?license_id=${UNKNOWN_KEY}`);
      expect(usage.status).toBe(404);
      const neither = await get('/admin/v1/usage');
      expect(neither.body).toEqual(invalidRequestNaming('license_id'));
    });

    it.each([
      ['', 'license_id'],
      ['from=2026-05-01', 'license_id'],
      ['license_id=a&license_id=b', 'license_id'],
      ['key_id=KEY&from=2026-13-01', 'from'],
      ['key_id=KEY&from=2026-02-30', 'from'],
      ['key_id=KEY&from=20260501', 'from'],
      ['key_id=KEY&to=yesterday', 'to'],
      ['key_id=KEY&from=2026-05-10&to=2026-05-09', 'from'],
      ['key_id=KEY&from=2025-05-19&to=2026-05-20', '366'],
      ['key_id=KEY&to=2026-05-01&to=2026-05-02', 'to'],
    ])('400 INVALID_REQUEST for ?%s', async (query, field) => {
      const res = await get(`/admin/v1/usage/daily?${query.replace('KEY', key.key_id)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidRequestNaming(field));
    });

    it('404 KEY_NOT_FOUND for an unknown key', async () => {
      const res = await get(`/admin/v1/usage/daily?key_id=${UNKNOWN_KEY}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(KEY_NOT_FOUND);
    });
  });

  describe('GET /admin/v1/audit (paged)', () => {
    it('pages every entry newest first, filtered by action; entries added between pages never shift later pages', async () => {
      const first = await get('/admin/v1/audit?limit=3');
      expect(first.status).toBe(200);
      expect(first.body.entries).toHaveLength(3);
      clock.set(new Date(NOW.getTime() + 3_600_000));
      await issue({ email: 'audit-later@example.org' });
      clock.set(NOW);
      const second = await get(`/admin/v1/audit?limit=3&cursor=${first.body.next_cursor}`);
      const all = await get('/admin/v1/audit?limit=200');
      const ids = all.body.entries.map((e: { id: string }) => e.id);
      const seen = [...first.body.entries, ...second.body.entries].map((e: { id: string }) => e.id);
      expect(seen).toEqual(ids.slice(1, 7));
      const times = all.body.entries.map((e: { at: string }) => Date.parse(e.at));
      expect(times).toEqual([...times].sort((a, b) => b - a));

      const revoked = await get('/admin/v1/audit?action=key.revoked');
      expect(revoked.body.entries.length).toBeGreaterThan(0);
      expect(revoked.body.entries.every((e: { action: string }) => e.action === 'key.revoked')).toBe(true);
      expect(revoked.body.next_cursor).toBeNull();
    });

    it('lists revocations made within one millisecond newest first, as they happened, on every page', async () => {
      clock.set(new Date(NOW.getTime() - DAY_MS)); // one instant, older than the other tests' entries
      const keys: string[] = [];
      for (let i = 0; i < 6; i++) keys.push((await issue({ email: `same-ms-${i}@example.org` })).key_id);
      const revokedInOrder = [2, 5, 0, 3, 1, 4].map((i) => keys[i]);
      for (const keyId of revokedInOrder) expect((await t.admin('POST', `/admin/v1/keys/${keyId}/revoke`, {})).status).toBe(200);

      const whole = (await get('/admin/v1/audit?action=key.revoked&limit=200')).body;
      expect(whole.next_cursor).toBeNull();
      const paged: Array<{ id: string; key_id: string }> = [];
      let cursor: string | null = null;
      for (let pages = 0; pages === 0 || (cursor !== null && pages < 100); pages++) {
        const page: HttpAnswer = await get(`/admin/v1/audit?action=key.revoked&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        paged.push(...page.body.entries);
        cursor = page.body.next_cursor;
      }
      expect(paged).toEqual(whole.entries);
      const mine = paged.filter((e) => keys.includes(e.key_id)).map((e) => e.key_id);
      expect(mine).toEqual([...revokedInOrder].reverse());
    });

    it('keeps ?key_id= compatible: entries, and next_cursor', async () => {
      const key = await issue({ email: 'audit-key@example.org' });
      const res = await get(`/admin/v1/audit?key_id=${key.key_id}`);
      expect(res.body).toEqual({ entries: [expect.objectContaining({ action: 'key.issued', key_id: key.key_id })], next_cursor: null });
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['cursor=abc.def', 'cursor'],
      ['cursor=WyJrZXlzIiwxLCJ4Il0', 'cursor'],
      ['action=key.deleted', 'action'],
    ])('400 INVALID_REQUEST for %s', async (query, field) => {
      const res = await get(`/admin/v1/audit?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidRequestNaming(field));
    });
  });

  describe('401 UNAUTHORIZED', () => {
    it.each([
      '/admin/v1/keys',
      '/admin/v1/usage/daily?key_id=x',
      '/admin/v1/usage/near-quota',
      '/admin/v1/overview',
      '/admin/v1/audit?limit=5',
    ])('%s', async (path) => {
      const bad: Array<Record<string, string>> = [
        {},
        { authorization: 'Bearer wrong-token-wrong-token-0000' },
        { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
      ];
      for (const headers of bad) {
        const res = await t.request('GET', path, { headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHORIZED);
      }
    });
  });
});

describe('Admin API: GET /admin/v1/overview, against known data', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  async function issue(body: Record<string, unknown>): Promise<Issued> {
    const res = await t.admin('POST', '/admin/v1/keys', body);
    expect(res.status).toBe(201);
    return res.body;
  }

  async function log(apiKey: string, at: string, times = 1): Promise<void> {
    clock.set(new Date(at));
    for (let i = 0; i < times; i++) expect((await t.post('/v1/analytics/log', inference(apiKey))).status).toBe(202);
  }

  it('answers an empty service', async () => {
    clock.set(NOW);
    const res = await t.admin('GET', '/admin/v1/overview');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.keys_by_tier).toEqual({ free: 0, research: 0, commercial: 0, enterprise: 0 });
    expect(res.body.keys_by_status).toEqual({ active: 0, expired: 0, revoked: 0 });
    expect(res.body.events_per_day).toHaveLength(30);
    expect(res.body.events_per_day[0]).toEqual({ date: '2026-04-21', events: 0 });
    expect(res.body.events_per_day[29]).toEqual({ date: '2026-05-20', events: 0 });
    expect(res.body.near_quota).toEqual([]);
    // the sample catalogue seeded at start (where it is) is the only change yet
    expect(res.body.recent_audit.every((e: { action: string }) => e.action === 'model.created')).toBe(true);
  });

  it('counts keys by tier and status, events per day, keys near their quota, the latest audit entries', async () => {
    clock.set(new Date('2026-04-01T00:00:00Z'));
    const full = await issue({ email: 'full@example.org', license_type: 'free', monthly_limit: 10 });
    const near = await issue({ email: 'near@example.org', license_type: 'research', monthly_limit: 5 });
    const below = await issue({ email: 'below@example.org', license_type: 'free', monthly_limit: 10 });
    const unlimited = await issue({ email: 'unlimited@example.org', license_type: 'enterprise' });
    const revoked = await issue({ email: 'revoked@example.org', license_type: 'commercial' });
    await issue({ email: 'expired@example.org', license_type: 'free', expires_at: '2026-05-01T00:00:00Z' });
    clock.set(new Date('2026-04-01T00:00:01Z'));
    await t.admin('POST', `/admin/v1/keys/${revoked.key_id}/revoke`, { reason: 'gone' });

    await log(full.api_key, '2026-04-20T12:00:00Z', 3); // before the 30 days, last period
    await log(full.api_key, '2026-04-21T00:00:00Z', 2); // the first of the 30 days, last period
    await log(full.api_key, '2026-05-02T09:00:00Z', 10); // at its limit this period
    await log(near.api_key, '2026-05-19T23:59:59Z', 4); // 80% of 5
    await log(below.api_key, '2026-05-20T08:00:00Z', 7); // 70%
    await log(unlimited.api_key, '2026-05-20T09:00:00Z', 50);
    clock.set(NOW);

    const res = await t.admin('GET', '/admin/v1/overview');
    expect(res.status).toBe(200);
    expect(res.body.keys_by_tier).toEqual({ free: 3, research: 1, commercial: 1, enterprise: 1 });
    expect(res.body.keys_by_status).toEqual({ active: 4, expired: 1, revoked: 1 });
    const days = res.body.events_per_day as Array<{ date: string; events: number }>;
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ date: '2026-04-21', events: 2 });
    expect(days.find((d) => d.date === '2026-05-02')).toEqual({ date: '2026-05-02', events: 10 });
    expect(days.find((d) => d.date === '2026-05-19')).toEqual({ date: '2026-05-19', events: 4 });
    expect(days[29]).toEqual({ date: '2026-05-20', events: 57 });
    expect(days.reduce((sum, d) => sum + d.events, 0)).toBe(73);
    expect(res.body.near_quota).toEqual([
      {
        key_id: full.key_id,
        email: 'full@example.org',
        prefix: full.api_key.slice(0, 12),
        license_type: 'free',
        used: 10,
        monthly_limit: 10,
        percent: 100,
      },
      {
        key_id: near.key_id,
        email: 'near@example.org',
        prefix: near.api_key.slice(0, 12),
        license_type: 'research',
        used: 4,
        monthly_limit: 5,
        percent: 80,
      },
    ]);
    const everything = await t.admin('GET', '/admin/v1/audit?limit=200');
    expect(res.body.recent_audit).toHaveLength(Math.min(10, everything.body.entries.length));
    expect(everything.body.entries.filter((e: { action: string }) => e.action.startsWith('key.'))).toHaveLength(7);
    const keyEntries = res.body.recent_audit.filter((e: { action: string }) => e.action.startsWith('key.'));
    expect(keyEntries[0]).toEqual(expect.objectContaining({ action: 'key.revoked', key_id: revoked.key_id, reason: 'gone' }));
    const audit = await t.admin('GET', '/admin/v1/audit?limit=10');
    expect(res.body.recent_audit).toEqual(audit.body.entries);
    expect(res.text).not.toContain(full.api_key);

    // every key near its quota, paged by cursor, highest share first, the same keys the overview shows
    const first = await t.admin('GET', '/admin/v1/usage/near-quota?limit=1');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body.keys).toEqual([res.body.near_quota[0]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await t.admin('GET', `/admin/v1/usage/near-quota?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body).toEqual({ keys: [res.body.near_quota[1]], next_cursor: null });
    const whole = await t.admin('GET', '/admin/v1/usage/near-quota');
    expect(whole.body).toEqual({ keys: res.body.near_quota, next_cursor: null });
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['cursor=not-a-cursor!', 'cursor'],
      [`cursor=${(await t.admin('GET', '/admin/v1/audit?limit=1')).body.next_cursor}`, 'cursor'],
    ]) {
      const bad = await t.admin('GET', `/admin/v1/usage/near-quota?${query}`);
      expect({ query, status: bad.status, body: bad.body }).toEqual({ query, status: 400, body: invalidRequestNaming(field) });
    }
  });
});
