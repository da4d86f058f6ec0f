import { createHash } from 'node:crypto';
import { FixedClock } from '@svc/domain';
import { Webhook } from 'standardwebhooks';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { WebhookReceiver, outboxSettled } from '../harness/webhook-receiver';

const NOW = new Date('2026-05-10T08:00:00.000Z');
const DAY_MS = 24 * 3600_000;
const DEVICE_EVENTS = ['device.activated', 'device.deactivated', 'device.limit_reached'];
const INSECURE = { WEBHOOK_ALLOW_INSECURE: 'true', SAMPLE_MODELS: 'false', WEBHOOK_POLL_INTERVAL_MS: '100' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function fingerprint(n: number): string {
  return `hooked-machine-${String(n).padStart(4, '0')}-fingerprint`;
}

/**
 * CONTRACT 23's device webhooks over real HTTP (a receiver on 127.0.0.1, each message checked with the
 * standardwebhooks verifier), on each database: `device.activated` for a new seat only,
 * `device.deactivated` with its reason, and `device.limit_reached` at most once per license and UTC day.
 * Time is the test's clock.
 */
describe('device webhooks (CONTRACT 23)', () => {
  const clock = new FixedClock(NOW);
  let t: TestApp;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await TestApp.start({ clock, env: INSECURE });
    const created = await t.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: DEVICE_EVENTS });
    expect(created.status).toBe(201);
    secret = created.body.secret as string;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const activate = (api_key: string, n: number, extra: Record<string, unknown> = {}) =>
    t.post('/v1/devices/activate', { api_key, fingerprint: fingerprint(n), ...extra });
  const messages = (type: string) => receiver.messages().filter((m) => m.type === type);

  it('sends device.activated on a new seat, not on a repeat; device.deactivated (sdk); one device.limit_reached a license a day', async () => {
    const issued = await t.issueKey({ licenseType: 'research' });
    const licenseId = issued.key_id;
    const first = await activate(issued.api_key, 1, { name: 'EEG lab PC 1', platform: 'windows-x64' });
    expect(first.status).toBe(201);
    expect((await activate(issued.api_key, 1)).status).toBe(200);
    expect((await activate(issued.api_key, 2)).status).toBe(201);
    expect((await activate(issued.api_key, 3)).status).toBe(201);
    // five refusals at once, and one more by the license's rotated key: one notice
    const refused = await Promise.all([4, 5, 6, 7, 8].map((n) => activate(issued.api_key, n)));
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
    const rotated = await t.post('/v1/auth/rotate', { api_key: issued.api_key, grace_seconds: 0 });
    expect(rotated.status).toBe(200);
    const successor = rotated.body as { api_key: string; key_id: string };
    expect((await activate(successor.api_key, 9)).status).toBe(409);
    clock.advance(60_000);
    const off = await t.post('/v1/devices/deactivate', { api_key: successor.api_key, fingerprint: fingerprint(1) });
    expect(off.status).toBe(200);

    await eventually(() => messages('device.activated').length === 3 && messages('device.deactivated').length === 1, { timeoutMs: 15000 });
    await outboxSettled(t.baseUrl);
    expect(messages('device.activated')).toHaveLength(3);
    expect(messages('device.limit_reached')).toHaveLength(1);
    const activated = messages('device.activated').find((m) => m.data.device_id === first.body.device_id)!;
    expect(activated).toEqual({
      type: 'device.activated',
      timestamp: '2026-05-10T08:00:00.000Z',
      data: {
        device_id: first.body.device_id,
        key_id: licenseId,
        license_id: licenseId,
        name: 'EEG lab PC 1',
        platform: 'windows-x64',
        activated_at: '2026-05-10T08:00:00Z',
        last_seen_at: '2026-05-10T08:00:00Z',
      },
    });
    expect(messages('device.deactivated')[0].data).toMatchObject({
      device_id: first.body.device_id,
      key_id: successor.key_id,
      license_id: licenseId,
      reason: 'sdk',
      deactivated_at: '2026-05-10T08:01:00Z',
    });
    expect(messages('device.limit_reached')[0].data).toEqual({ key_id: licenseId, license_id: licenseId, max_devices: 3, active: 3 });

    // the seat freed is taken; a refusal the same day sends nothing, the next UTC day once more
    expect((await activate(successor.api_key, 4)).status).toBe(201);
    expect((await activate(successor.api_key, 5)).status).toBe(409);
    clock.set(new Date(NOW.getTime() + DAY_MS));
    expect((await Promise.all([6, 7].map((n) => activate(successor.api_key, n)))).map((r) => r.status)).toEqual([409, 409]);
    await eventually(() => messages('device.limit_reached').length === 2, { timeoutMs: 15000 });
    await outboxSettled(t.baseUrl);
    expect(messages('device.limit_reached')).toHaveLength(2);
    expect(messages('device.limit_reached')[1]).toMatchObject({
      timestamp: '2026-05-11T08:00:00.000Z',
      data: { key_id: successor.key_id },
    });

    // signed, and never a fingerprint nor its digest
    for (const message of receiver.received) {
      const checked = new Webhook(secret).sign(
        String(message.headers['webhook-id']),
        new Date(Number(message.headers['webhook-timestamp']) * 1000),
        message.body,
      );
      expect(String(message.headers['webhook-signature']).split(' ')).toContain(checked);
      for (let n = 1; n <= 9; n++) {
        expect(message.body).not.toContain(fingerprint(n));
        expect(message.body).not.toContain(sha256(fingerprint(n)));
      }
    }
  });

  it("sends device.deactivated with reason operator for an operator's deactivation, once: a repeat answers 200 and sends nothing", async () => {
    const issued = await t.issueKey({ licenseType: 'research' });
    const device = await activate(issued.api_key, 21, { name: 'EEG lab PC 21' });
    expect(device.status).toBe(201);
    const deviceId = device.body.device_id as string;
    clock.advance(60_000);
    const path = `/admin/v1/keys/${issued.key_id}/devices/${deviceId}/deactivate`;
    const off = await t.admin('POST', path);
    expect(off.status).toBe(200);
    expect((await t.admin('POST', path)).status).toBe(200);
    const ofDevice = () => messages('device.deactivated').filter((m) => m.data.device_id === deviceId);
    await eventually(() => ofDevice().length === 1, { timeoutMs: 15000 });
    await outboxSettled(t.baseUrl);
    expect(ofDevice()).toHaveLength(1);
    expect(ofDevice()[0].data).toMatchObject({
      device_id: deviceId,
      key_id: issued.key_id,
      license_id: issued.key_id,
      name: 'EEG lab PC 21',
      reason: 'operator',
    });
  });

  it('takes the device event types on an endpoint, and refuses an unknown one', async () => {
    const ok = await t.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: ['device.limit_reached'] });
    expect(ok.status).toBe(201);
    const bad = await t.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: ['device.exploded'] });
    expect(bad.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('device.limit_reached') });
    await t.admin('DELETE', `/admin/v1/webhooks/${ok.body.id as string}`);
  });
});
