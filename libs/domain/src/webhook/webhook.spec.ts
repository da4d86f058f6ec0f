import { FixedClock } from '../shared/clock';
import { type RandomSource } from '../shared/id-generator';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, nextAttemptAfterFailure } from './webhook-delivery';
import {
  DISABLE_FAILING_AFTER_MS,
  type WebhookEndpoint,
  failingTooLong,
  generateWebhookSecret,
  signingSecretsOf,
} from './webhook-endpoint';
import { mayRaiseQuotaNotices, quotaCrossings, quotaNoticeId, quotaNoticesOf, quotaThresholdsOf } from './quota-crossing';
import { type Device } from '../device/device';
import { deviceActivatedEvent, deviceDeactivatedEvent, deviceLimitReachedEvent } from './webhook-event';

describe('quota crossings (CONTRACT 20)', () => {
  it('80 % rounds up; each threshold is crossed by exactly one consumption of a run', () => {
    expect(quotaThresholdsOf(20)).toEqual([
      { type: 'quota.warning', at: 16 },
      { type: 'quota.exhausted', at: 20 },
    ]);
    expect(quotaThresholdsOf(10_001)[0].at).toBe(8001);
    const crossed = Array.from({ length: 20 }, (_, i) => quotaCrossings(20, 1, i + 1).map((t) => t.type)).flat();
    expect(crossed).toEqual(['quota.warning', 'quota.exhausted']);
    expect(quotaCrossings(20, 1, 16).map((t) => t.type)).toEqual(['quota.warning']);
    expect(quotaCrossings(20, 1, 20).map((t) => t.type)).toEqual(['quota.exhausted']);
  });

  it('a consumption of more than one may cross both; unlimited, free events and a limit of 0 cross none', () => {
    expect(quotaCrossings(10, 5, 10).map((t) => t.type)).toEqual(['quota.warning', 'quota.exhausted']);
    expect(quotaCrossings(1, 1, 1).map((t) => t.type)).toEqual(['quota.warning', 'quota.exhausted']);
    expect(quotaCrossings(null, 1, 1_000_000)).toEqual([]);
    expect(quotaCrossings(20, 0, 16)).toEqual([]);
    expect(quotaCrossings(0, 1, 0)).toEqual([]);
  });

  it('one notice id per type, license and period', () => {
    expect(quotaNoticeId('quota.warning', 'key_a', '2026-11')).toBe('quota.warning:key_a:2026-11');
    expect(quotaNoticeId('quota.warning', 'key_a', '2026-12')).not.toBe(quotaNoticeId('quota.warning', 'key_a', '2026-11'));
  });

  it('the notices a consumption raises: one per threshold crossed, under its id per license and period, naming the key', () => {
    const at = new Date('2026-11-05T10:00:00.000Z');
    const consumer = { licenseId: 'lic_a', keyId: 'key_b', keyPrefix: 'sk_live_ab', period: '2026-11', at };
    expect(quotaNoticesOf(consumer, 20, 1, 16)).toEqual([
      {
        id: 'quota.warning:lic_a:2026-11',
        type: 'quota.warning',
        occurredAt: at,
        data: { license_id: 'lic_a', key_id: 'key_b', key_prefix: 'sk_live_ab', period: '2026-11', limit: 20, threshold: 16 },
      },
    ]);
    expect(quotaNoticesOf(consumer, 10, 5, 10).map((n) => n.id)).toEqual(['quota.warning:lic_a:2026-11', 'quota.exhausted:lic_a:2026-11']);
    expect(quotaNoticesOf(consumer, 20, 1, 17)).toEqual([]);
    expect(quotaNoticesOf(consumer, null, 1, 16)).toEqual([]);
    expect(quotaNoticesOf(consumer, 20, 0, 16)).toEqual([]);
  });

  it('only a limited, costed consumption may raise one', () => {
    expect(mayRaiseQuotaNotices(20, 1)).toBe(true);
    expect(mayRaiseQuotaNotices(null, 1)).toBe(false);
    expect(mayRaiseQuotaNotices(20, 0)).toBe(false);
  });
});

describe('the retry schedule', () => {
  it('about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failure, then none', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(RETRY_DELAYS_MS).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextAttemptAfterFailure(1, at)).toEqual(new Date(at.getTime() + 5000));
    expect(nextAttemptAfterFailure(7, at)).toEqual(new Date(at.getTime() + 36e6));
    expect(nextAttemptAfterFailure(8, at)).toBeNull();
  });

  it('an endpoint failing for 5 days is disabled, not before', () => {
    const since = new Date('2026-01-01T00:00:00Z');
    expect(failingTooLong(null, new Date())).toBe(false);
    expect(failingTooLong(since, new Date(since.getTime() + DISABLE_FAILING_AFTER_MS - 1))).toBe(false);
    expect(failingTooLong(since, new Date(since.getTime() + DISABLE_FAILING_AFTER_MS))).toBe(true);
  });
});

describe('signing secrets', () => {
  it('whsec_ and 32 bytes in base64', () => {
    const random: RandomSource = { hex: (n: number) => 'ab'.repeat(n) };
    const secret = generateWebhookSecret(random);
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toEqual(Buffer.alloc(32, 0xab));
  });

  it('the replaced secret signs beside the new one until its overlap ends', () => {
    const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
    const endpoint = {
      secret: 'new',
      previousSecret: 'old',
      previousSecretExpiresAt: new Date('2026-01-02T00:00:00Z'),
    } as WebhookEndpoint;
    expect(signingSecretsOf(endpoint, clock.now())).toEqual(['new', 'old']);
    clock.set(new Date('2026-01-02T00:00:00Z'));
    expect(signingSecretsOf(endpoint, clock.now())).toEqual(['new']);
  });
});

describe('device events (CONTRACT 23)', () => {
  const device: Device = {
    id: 'dev_1',
    licenseId: 'key_first',
    name: 'EEG lab PC 2',
    platform: 'windows-x64',
    activatedAt: new Date('2026-05-10T08:00:00.123Z'),
    lastSeenAt: new Date('2026-05-10T09:00:00Z'),
    deactivatedAt: null,
    deactivationReason: null,
  };

  it('name the device, the key and the license, never a fingerprint', () => {
    const activated = deviceActivatedEvent('wev_1', device, 'key_now', new Date('2026-05-10T08:00:00Z'));
    expect(activated).toMatchObject({ id: 'wev_1', type: 'device.activated' });
    expect(activated.data).toEqual({
      device_id: 'dev_1',
      key_id: 'key_now',
      license_id: 'key_first',
      name: 'EEG lab PC 2',
      platform: 'windows-x64',
      activated_at: '2026-05-10T08:00:00Z',
      last_seen_at: '2026-05-10T09:00:00Z',
    });
    const deactivated = deviceDeactivatedEvent('wev_2', device, 'key_now', 'lease_expired', new Date('2026-05-11T09:00:00Z'));
    expect(deactivated.data).toMatchObject({ device_id: 'dev_1', reason: 'lease_expired', deactivated_at: '2026-05-11T09:00:00Z' });
  });

  it('device.limit_reached has one id per license and UTC day', () => {
    const refused = { licenseId: 'key_first', keyId: 'key_now', maxDevices: 3, active: 3 };
    const early = deviceLimitReachedEvent(refused, new Date('2026-05-10T00:00:00Z'));
    expect(deviceLimitReachedEvent(refused, new Date('2026-05-10T23:59:59.999Z')).id).toBe(early.id);
    expect(deviceLimitReachedEvent(refused, new Date('2026-05-11T00:00:00Z')).id).not.toBe(early.id);
    expect(deviceLimitReachedEvent({ ...refused, licenseId: 'key_other' }, new Date('2026-05-10T00:00:00Z')).id).not.toBe(early.id);
    expect(early.data).toEqual({ key_id: 'key_now', license_id: 'key_first', max_devices: 3, active: 3 });
  });
});
