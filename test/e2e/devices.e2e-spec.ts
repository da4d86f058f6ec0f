import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@svc/domain';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { DataSource } from 'typeorm';
import shippedTiers from '../../config/tiers.json';
import { TestApp } from '../harness/create-test-app';
import { fetchJwks } from '../harness/license-token';

const NOW = new Date('2026-05-10T08:00:00.000Z');
const DEVICE_ID = /^dev_[0-9a-f]{24}$/;
const HOUR_MS = 3600_000;

function fingerprint(n: number): string {
  return `machine-${String(n).padStart(8, '0')}-fingerprint`;
}

const limitReached = (max: number, active: number) => ({
  error: 'Device limit reached',
  code: 'DEVICE_LIMIT_REACHED',
  message: `The license allows ${max} active device${max === 1 ? '' : 's'} and has ${active}; deactivate one first`,
  max_devices: max,
  active,
});
const DEVICE_NOT_FOUND = { error: 'Device not found or not active', code: 'DEVICE_NOT_FOUND' };
const DEVICE_NOT_ACTIVATED = {
  error: 'Device not activated',
  code: 'DEVICE_NOT_ACTIVATED',
  message: 'Activate the device first (POST /v1/devices/activate), or send the fingerprint it was activated with',
};
const DEVICE_REQUIRED = {
  error: 'Device required',
  code: 'DEVICE_REQUIRED',
  message: 'This license requires an active device: send its fingerprint in X-Device-Fingerprint',
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The license token's claims, its signature checked with jose against the service's JWKS. */
async function verifiedClaims(t: TestApp, token: string, at: Date): Promise<Record<string, unknown>> {
  const { payload } = await jwtVerify(token, createLocalJWKSet(await fetchJwks(t.baseUrl)), {
    issuer: 'svc-licensing',
    currentDate: at,
  });
  return payload;
}

/** The stored `last_seen_at` of a device, in epoch milliseconds. */
async function lastSeenOf(t: TestApp, deviceId: string): Promise<number> {
  const p = t.databaseKind === 'postgres' ? '$1' : '?';
  const [row] = await t.app.get(DataSource).query(`SELECT last_seen_at FROM devices WHERE id = ${p}`, [deviceId]);
  const value = row.last_seen_at;
  return value instanceof Date ? value.getTime() : new Date(t.databaseKind === 'sqlite' ? `${value}Z`.replace(' ', 'T') : value).getTime();
}

/** A tier file like the shipped one, research's device policy changed. */
function tiersFile(folder: string, research: Record<string, unknown>): string {
  const path = join(folder, 'tiers.json');
  writeFileSync(path, JSON.stringify({ ...shippedTiers, research: { ...shippedTiers.research, ...research } }));
  return path;
}

/**
 * CONTRACT 23: the SDK's device calls, on each database (SQLite, PostgreSQL, MySQL): activation and its
 * seats (the license's, shared by rotated keys), heartbeat, deactivation, leases on a controllable clock,
 * bad input, and no raw fingerprint stored.
 */
describe('POST /v1/devices/activate, /heartbeat, /deactivate (CONTRACT 23)', () => {
  let t: TestApp;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    t = await TestApp.start({ clock });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => clock.set(NOW));

  const activate = (api_key: string, body: Record<string, unknown>) => t.post('/v1/devices/activate', { api_key, ...body });
  const heartbeat = (api_key: string, fp: unknown) => t.post('/v1/devices/heartbeat', { api_key, fingerprint: fp });
  const deactivate = (api_key: string, fp: unknown) => t.post('/v1/devices/deactivate', { api_key, fingerprint: fp });

  describe('201 and 200', () => {
    it('activates a device (201), answers the same device for its fingerprint again (200), and keeps no lease without one', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const first = await activate(api_key, { fingerprint: fingerprint(1), name: 'EEG lab PC 1', platform: 'windows-x64' });
      expect(first.status).toBe(201);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(first.body).toEqual({
        device_id: expect.stringMatching(DEVICE_ID),
        name: 'EEG lab PC 1',
        platform: 'windows-x64',
        activated_at: '2026-05-10T08:00:00Z',
        last_seen_at: '2026-05-10T08:00:00Z',
        lease_expires_at: null,
      });
      clock.advance(90_000);
      const again = await activate(api_key, { fingerprint: fingerprint(1) });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, last_seen_at: '2026-05-10T08:01:30Z' });
    });

    it('answers at the unversioned alias too (CONTRACT 11)', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const res = await t.post('/devices/activate', { api_key, fingerprint: fingerprint(3) });
      expect(res.status).toBe(201);
      expect((await t.post('/devices/heartbeat', { api_key, fingerprint: fingerprint(3) })).body.device_id).toBe(res.body.device_id);
    });

    it('gives the rate limit headers of the devices limit on each call', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const res = await activate(api_key, { fingerprint: fingerprint(2) });
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000000');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000000);
    });

    it('heartbeat answers the device seen now; deactivate frees the seat for another fingerprint', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'free' });
      const one = await activate(api_key, { fingerprint: fingerprint(1), name: 'one' });
      expect(one.status).toBe(201);
      clock.advance(HOUR_MS);
      const beat = await heartbeat(api_key, fingerprint(1));
      expect(beat.status).toBe(200);
      expect(beat.body).toEqual({ ...one.body, last_seen_at: '2026-05-10T09:00:00Z' });

      expect(await activate(api_key, { fingerprint: fingerprint(2) })).toMatchObject({ status: 409, body: limitReached(1, 1) });
      const off = await deactivate(api_key, fingerprint(1));
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ device_id: one.body.device_id, deactivated: true, deactivated_at: '2026-05-10T09:00:00Z' });
      const two = await activate(api_key, { fingerprint: fingerprint(2) });
      expect(two.status).toBe(201);
      expect(two.body.device_id).not.toBe(one.body.device_id);
    });

    it('gives a deactivated fingerprint a new device when it is activated again', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'free' });
      const one = await activate(api_key, { fingerprint: fingerprint(1) });
      await deactivate(api_key, fingerprint(1));
      const again = await activate(api_key, { fingerprint: fingerprint(1) });
      expect(again.status).toBe(201);
      expect(again.body.device_id).not.toBe(one.body.device_id);
    });

    it('counts seats per license: a rotated key sees the same seats and devices', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'free' });
      const one = await activate(api_key, { fingerprint: fingerprint(1) });
      const rotated = await t.post('/v1/auth/rotate', { api_key, grace_seconds: 0 });
      expect(rotated.status).toBe(200);
      const successor = rotated.body.api_key as string;
      expect(await activate(successor, { fingerprint: fingerprint(2) })).toMatchObject({ status: 409, body: limitReached(1, 1) });
      expect(await heartbeat(successor, fingerprint(1))).toMatchObject({ status: 200, body: { device_id: one.body.device_id } });
    });

    it("keeps licenses apart: another license has seats of its own, and does not know the first one's devices", async () => {
      const a = await t.issueKey({ licenseType: 'free' });
      const b = await t.issueKey({ licenseType: 'free' });
      expect((await activate(a.api_key, { fingerprint: fingerprint(1) })).status).toBe(201);
      expect(await heartbeat(b.api_key, fingerprint(1))).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
      expect((await activate(b.api_key, { fingerprint: fingerprint(1) })).status).toBe(201);
    });

    it('gives an enterprise license unlimited seats', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'enterprise' });
      for (let n = 0; n < 30; n += 1) expect((await activate(api_key, { fingerprint: fingerprint(n) })).status).toBe(201);
    });
  });

  describe('409 DEVICE_LIMIT_REACHED', () => {
    it('refuses a fourth device on a research license, with max_devices and active', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      for (let n = 1; n <= 3; n += 1) expect((await activate(api_key, { fingerprint: fingerprint(n) })).status).toBe(201);
      const fourth = await activate(api_key, { fingerprint: fingerprint(4) });
      expect(fourth.status).toBe(409);
      expect(fourth.body).toEqual(limitReached(3, 3));
      expect((await activate(api_key, { fingerprint: fingerprint(2) })).status).toBe(200);
    });

    it('is exact under concurrency: of ten distinct fingerprints racing for three seats, three succeed', async () => {
      for (let round = 0; round < 3; round += 1) {
        const { api_key } = await t.issueKey({ licenseType: 'research' });
        const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => activate(api_key, { fingerprint: fingerprint(n) })));
        expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
        for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body).toEqual(limitReached(3, 3));
      }
    });

    it('gives one device to concurrent activations of one fingerprint', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const answers = await Promise.all(Array.from({ length: 6 }, () => activate(api_key, { fingerprint: fingerprint(7) })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((a) => a.body.device_id)).size).toBe(1);
    });
  });

  describe('404 DEVICE_NOT_FOUND', () => {
    it("answers an unknown fingerprint, and a deactivated device's heartbeat and deactivation", async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      expect(await heartbeat(api_key, fingerprint(9))).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
      expect(await deactivate(api_key, fingerprint(9))).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
      await activate(api_key, { fingerprint: fingerprint(9) });
      expect((await deactivate(api_key, fingerprint(9))).status).toBe(200);
      expect(await heartbeat(api_key, fingerprint(9))).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
      expect(await deactivate(api_key, fingerprint(9))).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
    });
  });

  describe('400', () => {
    const FINGERPRINT_RULE = 'fingerprint must be a string of 16 to 256 characters';

    it.each([
      ['missing', undefined],
      ['null', null],
      ['15 characters', 'f'.repeat(15)],
      ['257 characters', 'f'.repeat(257)],
      ['a number', 1234567890123456],
      ['a list', ['f'.repeat(16)]],
    ])('refuses a fingerprint that is %s on each call', async (_what, fp) => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      for (const path of ['/v1/devices/activate', '/v1/devices/heartbeat', '/v1/devices/deactivate']) {
        const res = await t.post(path, { api_key, fingerprint: fp });
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 400,
          body: { error: 'Invalid request', code: 'INVALID_REQUEST', message: FINGERPRINT_RULE },
        });
      }
    });

    it('takes fingerprints of 16 and of 256 characters', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      expect((await activate(api_key, { fingerprint: 'f'.repeat(16) })).status).toBe(201);
      expect((await activate(api_key, { fingerprint: 'f'.repeat(256) })).status).toBe(201);
    });

    it.each([
      ['name', 'PC\u0000 1'],
      ['name', 'line\nbreak'],
      ['name', 'rlo\u202eexe.txt'],
      ['platform', 'linux\u200f'],
      ['platform', 'esc\u001b[31m'],
      ['name', 'n'.repeat(201)],
      ['platform', 'p'.repeat(65)],
      ['name', 12],
    ])('refuses a %s of %j, naming the field', async (field, value) => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const res = await activate(api_key, { fingerprint: fingerprint(1), [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.stringContaining(field) });
    });

    it('answers key errors before body errors (CONTRACT 2)', async () => {
      expect((await t.post('/v1/devices/activate', { fingerprint: 'short' })).body.code).toBe('MISSING_KEY');
      expect((await t.post('/v1/devices/activate', { api_key: 'nope', fingerprint: 'short' })).body.code).toBe('INVALID_FORMAT');
    });
  });

  describe("key calls naming their device (X-Device-Fingerprint, or the body's fingerprint)", () => {
    it("validate's and refresh's license_token carry the device's SHA-256 as `device`, checked against the JWKS", async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      await activate(api_key, { fingerprint: fingerprint(1) });
      const byHeader = await t.post('/v1/auth/validate', { api_key }, { 'x-device-fingerprint': fingerprint(1) });
      expect(byHeader.status).toBe(200);
      expect((await verifiedClaims(t, byHeader.body.license_token, NOW)).device).toBe(sha256(fingerprint(1)));
      const byBody = await t.post('/v1/auth/refresh', { api_key, fingerprint: fingerprint(1) });
      expect(byBody.status).toBe(200);
      expect((await verifiedClaims(t, byBody.body.license_token, NOW)).device).toBe(sha256(fingerprint(1)));
    });

    it('answers unnamed calls as before: no device claim, nothing required', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      await activate(api_key, { fingerprint: fingerprint(1) });
      const named = await t.post('/v1/auth/validate', { api_key }, { 'x-device-fingerprint': fingerprint(1) });
      const unnamed = await t.post('/v1/auth/validate', { api_key });
      expect(unnamed.status).toBe(200);
      const claims = await verifiedClaims(t, unnamed.body.license_token, NOW);
      expect(claims).not.toHaveProperty('device');
      expect(unnamed.body.license_token).not.toBe(named.body.license_token);
      expect((await t.post('/v1/analytics/log', { api_key, event_type: 'model_load' })).status).toBe(202);
    });

    it('refuses a named device that is not active on the license with 403 DEVICE_NOT_ACTIVATED, on every key call', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const other = await t.issueKey({ licenseType: 'research' });
      await activate(other.api_key, { fingerprint: fingerprint(5) });
      const header = { 'x-device-fingerprint': fingerprint(5) };
      expect(await t.post('/v1/auth/validate', { api_key }, header)).toMatchObject({ status: 403, body: DEVICE_NOT_ACTIVATED });
      expect(await t.post('/v1/auth/refresh', { api_key, fingerprint: fingerprint(5) })).toMatchObject({
        status: 403,
        body: DEVICE_NOT_ACTIVATED,
      });
      expect(await t.post('/v1/analytics/log', { api_key, event_type: 'model_load' }, header)).toMatchObject({
        status: 403,
        body: DEVICE_NOT_ACTIVATED,
      });
      expect(await t.get('/v1/models/list', { 'x-api-key': api_key, ...header })).toMatchObject({
        status: 403,
        body: DEVICE_NOT_ACTIVATED,
      });
      await activate(api_key, { fingerprint: fingerprint(5) });
      await deactivate(api_key, fingerprint(5));
      expect(await t.post('/v1/auth/validate', { api_key }, header)).toMatchObject({ status: 403, body: DEVICE_NOT_ACTIVATED });
    });

    it('answers a named fingerprint outside 16-256 characters with 400, and key errors first', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const res = await t.post('/v1/auth/validate', { api_key }, { 'x-device-fingerprint': 'short' });
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'INVALID_REQUEST', message: 'fingerprint must be a string of 16 to 256 characters' },
      });
      expect((await t.post('/v1/auth/validate', { api_key, fingerprint: 42 })).body.code).toBe('INVALID_REQUEST');
      expect((await t.post('/v1/auth/validate', {}, { 'x-device-fingerprint': 'short' })).body.code).toBe('MISSING_KEY');
    });

    it('moves last_seen_at on named calls, written at most once a minute per device', async () => {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const { body } = await activate(api_key, { fingerprint: fingerprint(1) });
      const header = { 'x-device-fingerprint': fingerprint(1) };
      clock.advance(30_000);
      await t.post('/v1/auth/validate', { api_key }, header);
      expect(await lastSeenOf(t, body.device_id)).toBe(NOW.getTime());
      clock.advance(31_000);
      await t.post('/v1/auth/validate', { api_key }, header);
      expect(await lastSeenOf(t, body.device_id)).toBe(NOW.getTime() + 61_000);
      clock.advance(10_000);
      await t.post('/v1/auth/validate', { api_key }, header);
      expect(await lastSeenOf(t, body.device_id)).toBe(NOW.getTime() + 61_000);
    });
  });

  it('stores no raw fingerprint, only its SHA-256', async () => {
    const raw = 'raw-fingerprint-that-must-never-be-stored-0b9e1c';
    const { api_key } = await t.issueKey({ licenseType: 'research' });
    expect((await activate(api_key, { fingerprint: raw })).status).toBe(201);
    expect((await heartbeat(api_key, raw)).status).toBe(200);
    const contents = await t.databaseContents();
    expect(contents).not.toContain(raw);
    expect(contents).toContain(createHash('sha256').update(raw).digest('hex'));
  });
});

describe('Devices with a lease, and a lowered limit (CONTRACT 23, the tier file)', () => {
  let t: TestApp;
  let folder: string;
  const clock = new FixedClock(NOW);

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-tiers-'));
    t = await TestApp.start({ clock, env: { TIERS_FILE: tiersFile(folder, { max_devices: 2, device_lease_seconds: 3600 }) } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => clock.set(NOW));

  const activate = (api_key: string, fp: string) => t.post('/v1/devices/activate', { api_key, fingerprint: fp });

  it('answers when the lease ends, and a heartbeat renews it', async () => {
    const { api_key } = await t.issueKey({ licenseType: 'research' });
    expect((await activate(api_key, fingerprint(1))).body.lease_expires_at).toBe('2026-05-10T09:00:00Z');
    clock.advance(30 * 60_000);
    const beat = await t.post('/v1/devices/heartbeat', { api_key, fingerprint: fingerprint(1) });
    expect(beat.body).toMatchObject({ last_seen_at: '2026-05-10T08:30:00Z', lease_expires_at: '2026-05-10T09:30:00Z' });
  });

  it('releases the seat of a device not seen for the lease, judged when seats are counted', async () => {
    const { api_key } = await t.issueKey({ licenseType: 'research' });
    await activate(api_key, fingerprint(1));
    await activate(api_key, fingerprint(2));
    clock.advance(HOUR_MS - 1000);
    expect((await activate(api_key, fingerprint(3))).status).toBe(409);
    await t.post('/v1/devices/heartbeat', { api_key, fingerprint: fingerprint(2) });
    clock.advance(1000);
    expect((await activate(api_key, fingerprint(3))).status).toBe(201);
    expect((await t.post('/v1/devices/heartbeat', { api_key, fingerprint: fingerprint(1) })).body.code).toBe('DEVICE_NOT_FOUND');
    expect((await activate(api_key, fingerprint(4))).body).toMatchObject({ code: 'DEVICE_LIMIT_REACHED', max_devices: 2, active: 2 });
  });

  it('gives a lapsed fingerprint a new device when it comes back', async () => {
    const { api_key } = await t.issueKey({ licenseType: 'research' });
    const first = await activate(api_key, fingerprint(1));
    clock.advance(2 * HOUR_MS);
    const back = await activate(api_key, fingerprint(1));
    expect(back.status).toBe(201);
    expect(back.body.device_id).not.toBe(first.body.device_id);
    expect(back.body.activated_at).toBe('2026-05-10T10:00:00Z');
  });
});

describe('A tier with require_device (CONTRACT 23)', () => {
  let t: TestApp;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-tiers-'));
    t = await TestApp.start({ env: { TIERS_FILE: tiersFile(folder, { require_device: true }) } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers unnamed key calls 403 DEVICE_REQUIRED, lets the device calls through, and takes a named active device', async () => {
    const { api_key } = await t.issueKey({ licenseType: 'research' });
    expect(await t.post('/v1/auth/validate', { api_key })).toMatchObject({ status: 403, body: DEVICE_REQUIRED });
    expect(await t.post('/v1/analytics/log', { api_key, event_type: 'model_load' })).toMatchObject({ status: 403, body: DEVICE_REQUIRED });
    expect((await t.post('/v1/devices/activate', { api_key, fingerprint: fingerprint(1) })).status).toBe(201);
    expect((await t.post('/v1/auth/validate', { api_key }, { 'x-device-fingerprint': fingerprint(1) })).status).toBe(200);
    expect((await t.post('/v1/auth/revoke', { api_key })).status).toBe(200);
  });

  it('leaves the other tiers alone', async () => {
    const { api_key } = await t.issueKey({ licenseType: 'free' });
    expect((await t.post('/v1/auth/validate', { api_key })).status).toBe(200);
  });
});

describe('A tier with max_devices 0 (CONTRACT 23)', () => {
  it('refuses every activation with max_devices 0', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'svc-tiers-'));
    const t = await TestApp.start({ env: { TIERS_FILE: tiersFile(folder, { max_devices: 0 }) } });
    try {
      const { api_key } = await t.issueKey({ licenseType: 'research' });
      const res = await t.post('/v1/devices/activate', { api_key, fingerprint: fingerprint(1) });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(limitReached(0, 0));
    } finally {
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
