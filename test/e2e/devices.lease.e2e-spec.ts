import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@svc/domain';
import shippedTiers from '../../config/tiers.json';
import { DeviceLeaseReleaser } from '../../apps/api/src/modules/devices/device-lease-releaser';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { WebhookReceiver, outboxSettled } from '../harness/webhook-receiver';

const NOW = new Date('2026-05-10T08:00:00.000Z');
const LEASE_S = 3600;
const MINUTE_MS = 60_000;
const INSECURE = { WEBHOOK_ALLOW_INSECURE: 'true', SAMPLE_MODELS: 'false', WEBHOOK_POLL_INTERVAL_MS: '100' };

function fingerprint(n: number): string {
  return `leased-machine-${String(n).padStart(4, '0')}-fingerprint`;
}

interface AuditEntryView {
  action: string;
  key_id: string | null;
  details: Record<string, unknown>;
  actor: { type: string };
}

/**
 * CONTRACT 23's lease job on each database, on the test's clock: devices not seen for their tier's
 * `device_lease_seconds` are marked `lease_expired`, each with an audit entry by `system` and one
 * `device.deactivated` (reason `lease_expired`) to a real receiver, however many instances run the job
 * at once. The instances here run it by hand (DEVICE_LEASE_CHECK_SECONDS=0), but for the last test's.
 */
describe('the lease job: lapsed devices marked lease_expired (CONTRACT 23)', () => {
  const clock = new FixedClock(NOW);
  const folder = mkdtempSync(join(tmpdir(), 'device-lease-'));
  const tiersFile = join(folder, 'tiers.json');
  writeFileSync(tiersFile, JSON.stringify({ ...shippedTiers, research: { ...shippedTiers.research, device_lease_seconds: LEASE_S } }));
  let instances: TestApp[] = [];
  let a: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const env = { ...INSECURE, TIERS_FILE: tiersFile, DEVICE_LEASE_CHECK_SECONDS: '0' };
    a = await TestApp.start({ clock, env });
    const shared = { ...env, DATABASE_URL: a.databaseUrl, MODEL_STORE_DIR: a.config.models.storeDir };
    instances = [a, await TestApp.start({ clock, env: shared }), await TestApp.start({ clock, env: shared })];
    const created = await a.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: ['device.deactivated'] });
    expect(created.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    for (const t of [...instances].reverse()) await t.close();
    await receiver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const activate = (api_key: string, n: number) => a.post('/v1/devices/activate', { api_key, fingerprint: fingerprint(n) });
  const heartbeat = (api_key: string, n: number) => a.post('/v1/devices/heartbeat', { api_key, fingerprint: fingerprint(n) });
  const leaseExpired = () => receiver.messages().filter((m) => m.type === 'device.deactivated' && m.data.reason === 'lease_expired');
  /** One round of the job on every instance at once: the devices each released. */
  const roundsEverywhere = async () =>
    (await Promise.all(instances.map((t) => t.app.get(DeviceLeaseReleaser).round()))).map((r) => r?.released ?? -1);
  const auditOf = async (deviceId: string): Promise<AuditEntryView[]> => {
    const page = await a.admin('GET', '/admin/v1/audit?action=device.deactivated&limit=100');
    expect(page.status).toBe(200);
    return (page.body.entries as AuditEntryView[]).filter((e) => e.details.device_id === deviceId);
  };

  it('releases each lapsed device once across three instances, audited by system and notified; a device seen within its lease stays', async () => {
    clock.set(NOW);
    const issued = await a.issueKey({ licenseType: 'research' });
    const one = await activate(issued.api_key, 1);
    const two = await activate(issued.api_key, 2);
    const three = await activate(issued.api_key, 3);
    expect([one.status, two.status, three.status]).toEqual([201, 201, 201]);
    const rotated = await a.post('/v1/auth/rotate', { api_key: issued.api_key, grace_seconds: 0 });
    const current = rotated.body as { api_key: string; key_id: string };
    clock.advance(30 * MINUTE_MS);
    expect((await heartbeat(current.api_key, 2)).status).toBe(200);

    // a millisecond before the lease ends every seat is still held: nothing to do
    clock.set(new Date(NOW.getTime() + LEASE_S * 1000 - 1));
    expect(await roundsEverywhere()).toEqual([0, 0, 0]);
    clock.set(new Date(NOW.getTime() + LEASE_S * 1000 + 1000));
    const released = await roundsEverywhere();
    expect(released.reduce((x, y) => x + y, 0)).toBe(2);
    expect(await roundsEverywhere()).toEqual([0, 0, 0]);

    expect((await heartbeat(current.api_key, 1)).body).toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    expect((await heartbeat(current.api_key, 2)).status).toBe(200);
    for (const device of [one, three]) {
      const entries = await auditOf(device.body.device_id as string);
      expect(entries).toEqual([
        {
          ...entries[0],
          action: 'device.deactivated',
          key_id: current.key_id,
          actor: { type: 'system' },
          details: {
            device_id: device.body.device_id,
            license_id: issued.key_id,
            name: device.body.name,
            platform: device.body.platform,
            reason: 'lease_expired',
          },
        },
      ]);
    }
    expect(await auditOf(two.body.device_id as string)).toEqual([]);
    await eventually(() => leaseExpired().length >= 2, { timeoutMs: 15000 });
    await outboxSettled(a.baseUrl);
    expect(
      leaseExpired()
        .map((m) => m.data.device_id)
        .sort(),
    ).toEqual([one.body.device_id, three.body.device_id].sort());
    expect(leaseExpired()[0].data).toMatchObject({
      key_id: current.key_id,
      license_id: issued.key_id,
      last_seen_at: '2026-05-10T08:00:00Z',
      deactivated_at: '2026-05-10T09:00:01Z',
    });
  });

  it('marks a lapsed device lease_expired when its fingerprint comes back before the job, with the same records', async () => {
    clock.set(NOW);
    const issued = await a.issueKey({ licenseType: 'research' });
    const before = await activate(issued.api_key, 7);
    clock.advance(LEASE_S * 1000 + MINUTE_MS);
    const again = await activate(issued.api_key, 7);
    expect(again.status).toBe(201);
    expect(again.body.device_id).not.toBe(before.body.device_id);
    expect(await auditOf(before.body.device_id as string)).toEqual([
      expect.objectContaining({
        key_id: issued.key_id,
        actor: { type: 'system' },
        details: expect.objectContaining({ reason: 'lease_expired' }),
      }),
    ]);
    expect(await roundsEverywhere()).toEqual([0, 0, 0]);
    await eventually(() => leaseExpired().some((m) => m.data.device_id === before.body.device_id), { timeoutMs: 15000 });
    await outboxSettled(a.baseUrl);
    expect(leaseExpired().filter((m) => m.data.device_id === before.body.device_id)).toHaveLength(1);
  });

  it('leaves tiers without a lease alone', async () => {
    clock.set(NOW);
    const issued = await a.issueKey({ licenseType: 'commercial' });
    const device = await activate(issued.api_key, 9);
    expect(device.status).toBe(201);
    clock.advance(300 * 24 * 3600_000);
    await roundsEverywhere();
    expect((await heartbeat(issued.api_key, 9)).status).toBe(200);
    expect(await auditOf(device.body.device_id as string)).toEqual([]);
  });

  it('runs on its own every DEVICE_LEASE_CHECK_SECONDS', async () => {
    clock.set(NOW);
    const timed = await TestApp.start({
      clock,
      env: {
        ...INSECURE,
        TIERS_FILE: tiersFile,
        DATABASE_URL: a.databaseUrl,
        MODEL_STORE_DIR: a.config.models.storeDir,
        DEVICE_LEASE_CHECK_SECONDS: '1',
      },
    });
    instances.push(timed);
    const issued = await a.issueKey({ licenseType: 'research' });
    const device = await activate(issued.api_key, 11);
    clock.advance(LEASE_S * 1000 + 1000);
    await eventually(async () => (await auditOf(device.body.device_id as string)).length === 1, { timeoutMs: 10000 });
    expect((await heartbeat(issued.api_key, 11)).body).toMatchObject({ code: 'DEVICE_NOT_FOUND' });
  });
});
