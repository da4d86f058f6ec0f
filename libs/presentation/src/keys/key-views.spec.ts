import { type KeyDetails } from '@svc/application';
import { BillingPeriod, Quota } from '@svc/domain';
import { T0, makeApiKey, makeAuditEntry, makeUser } from '../../../../test/factories/domain.factory';
import { auditEntryViewOf, keyViewOf, quotaViewOf, rotatedKeyViewOf } from './key-views';

describe(keyViewOf.name, () => {
  it("shows the key's state, owner and quota in snake case, to the second, without the key", () => {
    const user = makeUser({ email: 'op@example.org' });
    const key = makeApiKey({ userId: user.id, licenseType: 'free', displayPrefix: 'svc_live_abc' });
    const details: KeyDetails = {
      key,
      user,
      status: 'active',
      quota: new Quota(10000, 40, BillingPeriod.containing(T0)),
      bounds: { monthlyLimitMax: 10000, maxDevicesMax: 1, expiresAtMax: new Date('2028-03-14T12:00:00.000Z') },
      maxDevices: { value: 1, source: 'tier' },
    };

    const view = keyViewOf(details);

    expect(view).toEqual({
      key_id: key.id,
      user_id: user.id,
      email: 'op@example.org',
      prefix: 'svc_live_abc',
      license_type: 'free',
      environment: 'live',
      status: 'active',
      expires_at: '2027-03-15T12:00:00Z',
      revoked_at: null,
      monthly_limit: 10000,
      monthly_limit_source: 'tier',
      max_devices: 1,
      max_devices_source: 'tier',
      quota: { monthly_limit: 10000, used: 40, remaining: 9960, resets_at: '2026-04-01T00:00:00Z' },
      license_id: key.id,
      rotated_from: null,
      rotated_to: null,
      update_bounds: { monthly_limit_max: 10000, max_devices_max: 1, expires_at_max: '2028-03-14T12:00:00Z' },
    });
    expect(JSON.stringify(view)).not.toContain(key.props.digest);
  });
});

describe(quotaViewOf.name, () => {
  it('answers null limit and remaining for an unlimited key', () => {
    expect(quotaViewOf(new Quota(null, 7, BillingPeriod.containing(T0)))).toEqual({
      monthly_limit: null,
      used: 7,
      remaining: null,
      resets_at: '2026-04-01T00:00:00Z',
    });
  });
});

describe(auditEntryViewOf.name, () => {
  it('leaves out a null reason and null details', () => {
    const entry = makeAuditEntry({ keyId: 'key_1' });
    expect(auditEntryViewOf(entry)).toEqual({
      id: entry.id,
      at: '2026-03-15T12:00:00.000Z',
      action: 'key.issued',
      key_id: 'key_1',
      actor: { type: 'system' },
    });
    expect(auditEntryViewOf(makeAuditEntry({ action: 'key.revoked', reason: 'lost', details: { by: 'op' } }))).toMatchObject({
      reason: 'lost',
      details: { by: 'op' },
    });
  });
});

describe(rotatedKeyViewOf.name, () => {
  it('shows the new key once, its expiry and when the old key stops, to the second', () => {
    const key = makeApiKey({ expiresAt: new Date('2027-01-01T00:00:00.500Z') });
    const secret = `svc_live_${'a'.repeat(48)}`;
    const stops = new Date('2026-03-16T12:00:00.900Z');
    expect(rotatedKeyViewOf({ key, secret, previousKeyExpiresAt: stops, graceSeconds: 86400 })).toEqual({
      api_key: secret,
      key_id: key.id,
      expires_at: '2027-01-01T00:00:00Z',
      previous_key_expires_at: '2026-03-16T12:00:00Z',
      message: 'API key rotated: store the new key; the previous key works until 2026-03-16T12:00:00Z',
    });
    expect(rotatedKeyViewOf({ key, secret, previousKeyExpiresAt: T0, graceSeconds: 0 }).message).toBe(
      'API key rotated: store the new key; the previous key is revoked',
    );
  });
});
