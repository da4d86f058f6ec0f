import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { FixedClock, type Role } from '@svc/domain';
import { runCli } from '../harness/cli';
import { printedJson } from '../harness/cli-stderr';
import { TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

const DEVICE_ID = /^dev_[0-9a-f]{24}$/;
const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MAX_DEVICES_RULE = "max_devices must be an integer from 0 to 1000000, or null for the tier's";
const DEVICE_NOT_FOUND = { error: 'Device not found or not active', code: 'DEVICE_NOT_FOUND' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
jest.setTimeout(180_000);

let counter = 0;
/** A fingerprint of its own for each device of these tests (16 to 256 characters). */
const fingerprint = (): string => `admin-devices-machine-${Date.now().toString(36)}-${counter++}`;

/**
 * CONTRACT 23, the operators' side, on each database (SQLite, PostgreSQL, MySQL): the license's `max_devices`
 * override in the key's PATCH (shared by rotated keys, below the active count, null back to the tier's, by role),
 * GET /admin/v1/keys/{key_id}/devices, the operator's deactivation, their audit entries and actors, and the
 * CLI's `keys update --max-devices`, `devices list` and `devices deactivate` as a real process on the same database.
 */
describe('operators and devices: max_devices, the devices list, deactivation (CONTRACT 23)', () => {
  let t: TestApp;
  // the real time to the second (the CLI's process runs on the real clock), moved on by the tests that order devices
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  const tokens = {} as Record<Role, string>;
  const operatorIds = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await TestApp.start({ clock });
    for (const role of ['viewer', 'support', 'admin'] as const) {
      const res = await t.admin('POST', '/admin/v1/operators', { name: `Devices ${role}`, role });
      expect(res.status).toBe(201);
      tokens[role] = res.body.token;
      operatorIds[role] = res.body.operator_id;
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (role: Role, method: string, path: string, json?: unknown): Promise<HttpAnswer> =>
    t.request(method, path, { json, headers: { authorization: `Bearer ${tokens[role]}` } });
  const activate = (api_key: string, fp: string, name?: string) =>
    t.post('/v1/devices/activate', { api_key, fingerprint: fp, name, platform: 'linux-x64' });
  const limitReached = (max: number, active: number) => ({
    status: 409,
    body: expect.objectContaining({ code: 'DEVICE_LIMIT_REACHED', max_devices: max, active }),
  });
  const answer = (res: HttpAnswer) => ({ status: res.status, body: res.body });
  const auditOf = async (keyId: string, action: string) =>
    (await t.admin('GET', `/admin/v1/audit?key_id=${keyId}&action=${action}`)).body.entries as Array<Record<string, any>>;

  async function researchKey(): Promise<{ key_id: string; api_key: string }> {
    return t.issueKey({ email: `devices-${counter++}@example.org`, licenseType: 'research' });
  }

  describe('max_devices in PATCH /admin/v1/keys/{key_id}', () => {
    it("shows the tier's seats, then the license's override: activation obeys it, the rotated key shares it, null goes back", async () => {
      const key = await researchKey();
      const shown = await t.admin('GET', `/admin/v1/keys/${key.key_id}`);
      expect(shown.body).toMatchObject({ max_devices: 3, max_devices_source: 'tier', update_bounds: { max_devices_max: 3 } });

      const lowered = await as('support', 'PATCH', `/admin/v1/keys/${key.key_id}`, { max_devices: 1 });
      expect(lowered.status).toBe(200);
      expect(lowered.body).toMatchObject({ max_devices: 1, max_devices_source: 'override', monthly_limit_source: 'tier' });
      expect((await activate(key.api_key, fingerprint())).status).toBe(201);
      expect(answer(await activate(key.api_key, fingerprint()))).toEqual(limitReached(1, 1));

      // the override is the license's: the key a rotation gives sees it and is held to it
      const rotated = await t.admin('POST', `/admin/v1/keys/${key.key_id}/rotate`, { grace_seconds: 3600 });
      expect(rotated.status).toBe(200);
      const next = { key_id: rotated.body.key_id as string, api_key: rotated.body.api_key as string };
      expect((await t.admin('GET', `/admin/v1/keys/${next.key_id}`)).body).toMatchObject({
        max_devices: 1,
        max_devices_source: 'override',
      });
      expect(answer(await activate(next.api_key, fingerprint()))).toEqual(limitReached(1, 1));

      // set through the current key, the old key (in its grace) sees it too
      expect((await as('support', 'PATCH', `/admin/v1/keys/${next.key_id}`, { max_devices: 2 })).body.max_devices).toBe(2);
      expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).body).toMatchObject({ max_devices: 2, max_devices_source: 'override' });
      expect((await activate(key.api_key, fingerprint())).status).toBe(201);
      expect(answer(await activate(next.api_key, fingerprint()))).toEqual(limitReached(2, 2));

      const reset = await as('support', 'PATCH', `/admin/v1/keys/${next.key_id}`, { max_devices: null });
      expect(reset.body).toMatchObject({ max_devices: 3, max_devices_source: 'tier' });
      expect((await activate(next.api_key, fingerprint())).status).toBe(201);
      expect(answer(await activate(next.api_key, fingerprint()))).toEqual(limitReached(3, 3));

      // audited like the monthly limit: from and to, with the operator as actor
      const [latest, earlier] = await auditOf(next.key_id, 'key.updated');
      expect(latest).toMatchObject({
        details: { max_devices: { from: { source: 'override', max_devices: 2 }, to: { source: 'tier' } } },
        actor: { type: 'operator', operator_id: operatorIds.support, name: 'Devices support' },
      });
      expect(earlier.details).toEqual({
        max_devices: { from: { source: 'override', max_devices: 1 }, to: { source: 'override', max_devices: 2 } },
      });
    });

    it('lowered below the active count: every device keeps its seat, and none is activated until fewer are active', async () => {
      const key = await researchKey();
      const fps = [fingerprint(), fingerprint(), fingerprint()];
      const ids: string[] = [];
      for (const fp of fps) ids.push((await activate(key.api_key, fp)).body.device_id);
      expect((await as('support', 'PATCH', `/admin/v1/keys/${key.key_id}`, { max_devices: 1 })).status).toBe(200);

      // the active devices keep working (validate naming one), an active fingerprint is answered 200, a new one refused
      const named = await t.post('/v1/auth/validate', { api_key: key.api_key }, { 'x-device-fingerprint': fps[2] });
      expect(named.status).toBe(200);
      expect((await activate(key.api_key, fps[0])).status).toBe(200);
      expect(answer(await activate(key.api_key, fingerprint()))).toEqual(limitReached(1, 3));

      expect((await t.post('/v1/devices/deactivate', { api_key: key.api_key, fingerprint: fps[0] })).status).toBe(200);
      expect((await as('support', 'POST', `/admin/v1/keys/${key.key_id}/devices/${ids[1]}/deactivate`)).status).toBe(200);
      expect(answer(await activate(key.api_key, fingerprint()))).toEqual(limitReached(1, 1));
      expect((await as('support', 'POST', `/admin/v1/keys/${key.key_id}/devices/${ids[2]}/deactivate`)).status).toBe(200);
      expect((await activate(key.api_key, fingerprint())).status).toBe(201);
    });

    it('0 refuses every activation', async () => {
      const key = await researchKey();
      expect((await as('support', 'PATCH', `/admin/v1/keys/${key.key_id}`, { max_devices: 0 })).body.max_devices).toBe(0);
      expect(answer(await activate(key.api_key, fingerprint()))).toEqual(limitReached(0, 0));
    });

    it('viewer 403, support up to the tier (or the current override), above it admin only', async () => {
      const key = await researchKey();
      const path = `/admin/v1/keys/${key.key_id}`;
      const viewer = await as('viewer', 'PATCH', path, { max_devices: 1 });
      expect(answer(viewer)).toEqual({ status: 403, body: expect.objectContaining({ code: 'FORBIDDEN' }) });
      const above = await as('support', 'PATCH', path, { max_devices: 4 });
      expect(answer(above)).toEqual({
        status: 403,
        body: {
          error: 'Forbidden',
          code: 'FORBIDDEN',
          message: "This needs the admin role or higher (permission keys.raise_limit): max_devices of 4 is above the research tier's 3",
        },
      });
      expect((await t.admin('GET', path)).body.max_devices_source).toBe('tier');
      expect((await as('admin', 'PATCH', path, { max_devices: 10 })).body).toMatchObject({
        max_devices: 10,
        update_bounds: { max_devices_max: 10 },
      });
      // an admin's override above the tier: support may lower it, not raise it
      expect((await as('support', 'PATCH', path, { max_devices: 8 })).status).toBe(200);
      expect((await as('support', 'PATCH', path, { max_devices: 9 })).status).toBe(403);
      expect((await as('support', 'PATCH', path, { max_devices: null })).body.max_devices).toBe(3);
    });

    it.each([[-1], [1.5], ['3'], ['tier'], [1_000_001], [true], [{}]])(
      'max_devices %j: 400 INVALID_REQUEST, nothing changed',
      async (value) => {
        const key = await researchKey();
        const res = await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { max_devices: value });
        expect(answer(res)).toEqual({
          status: 400,
          body: { error: 'Invalid request', code: 'INVALID_REQUEST', message: MAX_DEVICES_RULE },
        });
        expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).body.max_devices_source).toBe('tier');
      },
    );

    it('an unknown key is 404 KEY_NOT_FOUND', async () => {
      const res = await t.admin('PATCH', '/admin/v1/keys/key_000000000000000000000000', { max_devices: 1 });
      expect(answer(res)).toEqual({ status: 404, body: expect.objectContaining({ code: 'KEY_NOT_FOUND' }) });
    });
  });

  describe('GET /admin/v1/keys/{key_id}/devices and POST .../devices/{device_id}/deactivate', () => {
    it("lists every device of the license (the rotated key's too), active first, never a fingerprint", async () => {
      const key = await researchKey();
      const fps = [fingerprint(), fingerprint()];
      const first = await activate(key.api_key, fps[0], 'Lab PC 1');
      clock.advance(1000);
      const gone = await activate(key.api_key, fps[1], 'Lab PC 2');
      clock.advance(1000);
      expect((await t.post('/v1/devices/deactivate', { api_key: key.api_key, fingerprint: fps[1] })).status).toBe(200);
      const rotated = await t.admin('POST', `/admin/v1/keys/${key.key_id}/rotate`, { grace_seconds: 0 });
      const fp3 = fingerprint();
      clock.advance(1000);
      const third = await activate(rotated.body.api_key, fp3, 'Lab PC 3');

      for (const keyId of [key.key_id, rotated.body.key_id]) {
        const res = await as('viewer', 'GET', `/admin/v1/keys/${keyId}/devices`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          key_id: keyId,
          license_id: key.key_id,
          active: 2,
          devices: [
            {
              device_id: third.body.device_id,
              name: 'Lab PC 3',
              platform: 'linux-x64',
              status: 'active',
              activated_at: expect.stringMatching(ISO_SECOND),
              last_seen_at: expect.stringMatching(ISO_SECOND),
              lease_expires_at: null,
              deactivated_at: null,
              deactivation_reason: null,
            },
            expect.objectContaining({ device_id: first.body.device_id, name: 'Lab PC 1', status: 'active', deactivation_reason: null }),
            expect.objectContaining({
              device_id: gone.body.device_id,
              status: 'deactivated',
              deactivated_at: expect.stringMatching(ISO_SECOND),
              deactivation_reason: 'sdk',
            }),
          ],
        });
        for (const fp of [...fps, fp3]) {
          expect(res.text).not.toContain(fp);
          expect(res.text).not.toContain(sha256(fp));
        }
      }
      expect(third.body.device_id).toMatch(DEVICE_ID);
    });

    it('an unknown key is 404 KEY_NOT_FOUND; a license with no devices lists none', async () => {
      const unknown = await t.admin('GET', '/admin/v1/keys/key_000000000000000000000000/devices');
      expect(answer(unknown)).toEqual({ status: 404, body: expect.objectContaining({ code: 'KEY_NOT_FOUND' }) });
      const key = await researchKey();
      expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}/devices`)).body).toEqual({
        key_id: key.key_id,
        license_id: key.key_id,
        active: 0,
        devices: [],
      });
    });

    it('support deactivates (reason operator, the seat freed, audited with the operator); again is 200 as it stands; viewer 403', async () => {
      const key = await t.issueKey({ email: `devices-free-${counter++}@example.org`, licenseType: 'free' });
      const fp = fingerprint();
      const device = await activate(key.api_key, fp, 'Only seat');
      expect(answer(await activate(key.api_key, fingerprint()))).toEqual(limitReached(1, 1));
      const path = `/admin/v1/keys/${key.key_id}/devices/${device.body.device_id}/deactivate`;

      const viewer = await as('viewer', 'POST', path);
      expect(answer(viewer)).toEqual({
        status: 403,
        body: {
          error: 'Forbidden',
          code: 'FORBIDDEN',
          message: 'This needs the support role or higher (permission devices.deactivate)',
        },
      });

      const off = await as('support', 'POST', path);
      expect(answer(off)).toEqual({
        status: 200,
        body: {
          device_id: device.body.device_id,
          name: 'Only seat',
          platform: 'linux-x64',
          status: 'deactivated',
          activated_at: device.body.activated_at,
          last_seen_at: expect.stringMatching(ISO_SECOND),
          lease_expires_at: null,
          deactivated_at: expect.stringMatching(ISO_SECOND),
          deactivation_reason: 'operator',
        },
      });
      // the SDK's device is no longer active: named calls are refused, its seat is free
      const named = await t.post('/v1/auth/validate', { api_key: key.api_key }, { 'x-device-fingerprint': fp });
      expect(named.body.code).toBe('DEVICE_NOT_ACTIVATED');
      expect(answer(await t.post('/v1/devices/heartbeat', { api_key: key.api_key, fingerprint: fp }))).toEqual({
        status: 404,
        body: DEVICE_NOT_FOUND,
      });

      // idempotent: answered as it stands, nothing written again
      const again = await as('admin', 'POST', path);
      expect(answer(again)).toEqual({ status: 200, body: off.body });
      const entries = await auditOf(key.key_id, 'device.deactivated');
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        action: 'device.deactivated',
        key_id: key.key_id,
        details: { device_id: device.body.device_id, license_id: key.key_id, name: 'Only seat', platform: 'linux-x64', reason: 'operator' },
        actor: { type: 'operator', operator_id: operatorIds.support, name: 'Devices support' },
      });
      expect((await activate(key.api_key, fingerprint())).status).toBe(201);
    });

    it('an unknown device, or one of another license, is 404 DEVICE_NOT_FOUND; an unknown key 404 KEY_NOT_FOUND', async () => {
      const mine = await researchKey();
      const theirs = await researchKey();
      const device = await activate(theirs.api_key, fingerprint());
      const other = await t.admin('POST', `/admin/v1/keys/${mine.key_id}/devices/${device.body.device_id}/deactivate`);
      expect(answer(other)).toEqual({ status: 404, body: DEVICE_NOT_FOUND });
      const none = await t.admin('POST', `/admin/v1/keys/${mine.key_id}/devices/dev_000000000000000000000000/deactivate`);
      expect(answer(none)).toEqual({ status: 404, body: DEVICE_NOT_FOUND });
      const noKey = await t.admin('POST', `/admin/v1/keys/key_000000000000000000000000/devices/${device.body.device_id}/deactivate`);
      expect(answer(noKey)).toEqual({ status: 404, body: expect.objectContaining({ code: 'KEY_NOT_FOUND' }) });
      // the device of the other license is untouched
      expect((await t.admin('GET', `/admin/v1/keys/${theirs.key_id}/devices`)).body.devices[0].status).toBe('active');
    });

    it("audits the SDK's activation and deactivation with the key as actor; an activation answered again is not audited", async () => {
      const key = await researchKey();
      const fp = fingerprint();
      const device = await activate(key.api_key, fp, 'Audited');
      expect((await activate(key.api_key, fp)).status).toBe(200);
      expect((await t.post('/v1/devices/deactivate', { api_key: key.api_key, fingerprint: fp })).status).toBe(200);
      const activated = await auditOf(key.key_id, 'device.activated');
      expect(activated).toHaveLength(1);
      expect(activated[0]).toMatchObject({
        key_id: key.key_id,
        details: { device_id: device.body.device_id, license_id: key.key_id, name: 'Audited', platform: 'linux-x64' },
        actor: { type: 'key', key_id: key.key_id },
      });
      const deactivated = await auditOf(key.key_id, 'device.deactivated');
      expect(deactivated).toHaveLength(1);
      expect(deactivated[0]).toMatchObject({ details: { reason: 'sdk' }, actor: { type: 'key', key_id: key.key_id } });
      const all = JSON.stringify(await t.admin('GET', `/admin/v1/audit?key_id=${key.key_id}`));
      expect(all).not.toContain(fp);
      expect(all).not.toContain(sha256(fp));
    });
  });

  describe('the CLI (built), on the same database', () => {
    const env = (): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      DATABASE_URL: t.databaseUrl,
      SAMPLE_MODELS: 'false',
      LOG_LEVEL: 'error',
    });
    const cliJson = async (...args: string[]) => printedJson(await runCli([...args, '--json'], { env: env() }), t.databaseUrl);

    it('keys update --max-devices, devices list and devices deactivate (the CLI user in the audit), and bad values', async () => {
      const key = await researchKey();
      const fp = fingerprint();
      const device = await activate(key.api_key, fp, 'CLI PC');

      const updated = await cliJson('keys', 'update', key.key_id, '--max-devices', '1');
      expect(updated).toMatchObject({ key_id: key.key_id, max_devices: 1, max_devices_source: 'override' });
      expect(answer(await activate(key.api_key, fingerprint()))).toEqual(limitReached(1, 1));

      const listed = await cliJson('devices', 'list', key.key_id);
      expect(listed).toEqual((await t.admin('GET', `/admin/v1/keys/${key.key_id}/devices`)).body);
      expect(listed.devices.map((d: { device_id: string }) => d.device_id)).toEqual([device.body.device_id]);
      const human = await runCli(['devices', 'list', key.key_id], { env: env() });
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(device.body.device_id);
      expect(human.stdout).toContain('CLI PC');
      expect(human.stdout).not.toContain(fp);

      const off = await cliJson('devices', 'deactivate', device.body.device_id);
      expect(off).toMatchObject({ device_id: device.body.device_id, status: 'deactivated', deactivation_reason: 'operator' });
      const [entry] = await auditOf(key.key_id, 'device.deactivated');
      expect(entry).toMatchObject({ details: { reason: 'operator' }, actor: { type: 'cli', user: userInfo().username } });
      const [limit] = await auditOf(key.key_id, 'key.updated');
      expect(limit).toMatchObject({ details: { max_devices: { to: { source: 'override', max_devices: 1 } } }, actor: { type: 'cli' } });
      expect((await activate(key.api_key, fingerprint())).status).toBe(201);

      expect((await cliJson('keys', 'update', key.key_id, '--max-devices', 'tier')).max_devices).toBe(3);

      const unknown = await runCli(['devices', 'deactivate', 'dev_000000000000000000000000', '--json'], { env: env() });
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('DEVICE_NOT_FOUND');
      const bad = await runCli(['keys', 'update', key.key_id, '--max-devices', 'lots'], { env: env() });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('--max-devices must be an integer from 0 to 1000000, or "tier"');
    });
  });
});
