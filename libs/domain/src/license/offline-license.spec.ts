import { BillingPeriod } from '../quota/billing-period';
import { Quota } from '../quota/quota';
import { DAY_MS, T0, makeApiKey } from '../../../../test/factories/domain.factory';
import { MAX_OFFLINE_LICENSE_TTL_SECONDS, OfflineLicensePolicy, licenseTermsOf } from './offline-license';

describe(OfflineLicensePolicy.name, () => {
  const quota = new Quota(50000, 1200, BillingPeriod.containing(T0));

  it("says what the key holds, names it by id, and lives the policy's lifetime", () => {
    const key = makeApiKey({ licenseType: 'research', environment: 'test', expiresAt: new Date(T0.getTime() + 365 * DAY_MS) });
    expect(new OfflineLicensePolicy(86_400).licenseOf(key, ['batch_inference'], quota, T0)).toEqual({
      keyId: key.id,
      userId: key.userId,
      licenseType: 'research',
      features: ['batch_inference'],
      monthlyLimit: 50000,
      resetsAt: new Date('2026-04-01T00:00:00Z'),
      keyExpiresAt: key.expiresAt,
      environment: 'test',
      issuedAt: T0,
      expiresAt: new Date(T0.getTime() + DAY_MS),
    });
  });

  it("never outlives the key: expires with it when the key's expiry comes first", () => {
    const key = makeApiKey({ expiresAt: new Date(T0.getTime() + 60_000) });
    expect(new OfflineLicensePolicy(86_400).licenseOf(key, [], quota, T0).expiresAt).toEqual(key.expiresAt);
  });

  it('refuses a lifetime outside 1 second to a year', () => {
    for (const ttl of [0, -1, 1.5, MAX_OFFLINE_LICENSE_TTL_SECONDS + 1, Number.NaN]) {
      expect(() => new OfflineLicensePolicy(ttl)).toThrow(RangeError);
    }
    expect(new OfflineLicensePolicy(MAX_OFFLINE_LICENSE_TTL_SECONDS).ttlSeconds).toBe(MAX_OFFLINE_LICENSE_TTL_SECONDS);
  });
});

describe('OfflineLicensePolicy.isUsable', () => {
  const policy = new OfflineLicensePolicy(86_400);
  const key = makeApiKey({ licenseType: 'research' });
  const quota = new Quota(50000, 0, BillingPeriod.containing(T0));
  const at = (ms: number) => new Date(T0.getTime() + ms);
  const stored = policy.storedOf(policy.licenseOf(key, ['a'], quota, T0), 'token', 'kid-1', 0);

  it('hands a stored license out for three quarters of its lifetime, signed by a published key', () => {
    expect(policy.isUsable(stored, policy.licenseOf(key, ['a'], quota, at(0)), ['kid-1'])).toBe(true);
    expect(policy.isUsable(stored, policy.licenseOf(key, ['a'], quota, at(64_800_000 - 1)), ['kid-0', 'kid-1'])).toBe(true);
    expect(policy.isUsable(stored, policy.licenseOf(key, ['a'], quota, at(64_800_000)), ['kid-1'])).toBe(false);
    // another instance's clock a little ahead signed it "later"
    expect(policy.isUsable(stored, policy.licenseOf(key, ['a'], quota, at(-1000)), ['kid-1'])).toBe(true);
    // its signing key is no longer published
    expect(policy.isUsable(stored, policy.licenseOf(key, ['a'], quota, at(0)), ['kid-2'])).toBe(false);
  });

  it('never hands out one whose terms changed: tier, features, limit, period, key expiry, environment, key, user, device', () => {
    const changed = [
      policy.licenseOf(makeApiKey({ ...key.props, licenseType: 'commercial' }), ['a'], quota, T0),
      policy.licenseOf(key, ['a', 'b'], quota, T0),
      policy.licenseOf(key, ['b'], quota, T0),
      policy.licenseOf(key, [], quota, T0),
      policy.licenseOf(key, ['a'], new Quota(1234, 0, quota.period), T0),
      policy.licenseOf(key, ['a'], new Quota(null, 0, quota.period), T0),
      policy.licenseOf(key, ['a'], new Quota(50000, 0, BillingPeriod.containing(at(31 * DAY_MS))), T0),
      policy.licenseOf(makeApiKey({ ...key.props, expiresAt: at(DAY_MS) }), ['a'], quota, T0),
      policy.licenseOf(makeApiKey({ ...key.props, environment: 'test' }), ['a'], quota, T0),
      policy.licenseOf(makeApiKey({ ...key.props, id: 'key_other' }), ['a'], quota, T0),
      policy.licenseOf(makeApiKey({ ...key.props, userId: 'usr_other' }), ['a'], quota, T0),
      policy.licenseOf(key, ['a'], quota, T0, 'f'.repeat(64)),
    ];
    for (const license of changed) expect(policy.isUsable(stored, license, ['kid-1'])).toBe(false);
    // what was used is not a term: the license does not carry it
    expect(policy.isUsable(stored, policy.licenseOf(key, ['a'], new Quota(50000, 999, quota.period), T0), ['kid-1'])).toBe(true);
  });

  it('writes the terms alone: the same whenever signed, others for other terms', () => {
    const license = policy.licenseOf(key, ['a'], quota, T0);
    expect(JSON.parse(licenseTermsOf(license))).toEqual([
      key.id,
      key.userId,
      'research',
      ['a'],
      50000,
      quota.period.resetsAt.getTime(),
      key.expiresAt.getTime(),
      'live',
      null,
    ]);
    expect(licenseTermsOf(policy.licenseOf(key, ['a'], quota, at(5000)))).toBe(licenseTermsOf(license));
    expect(licenseTermsOf(policy.licenseOf(key, ['a'], new Quota(1, 0, quota.period), T0))).not.toBe(licenseTermsOf(license));
  });

  it('is re-signed from half its lifetime on, a tenth later at most, never after its period ends or its key expires', () => {
    const license = policy.licenseOf(makeApiKey({ ...key.props, expiresAt: at(365 * DAY_MS) }), ['a'], quota, T0);
    expect(policy.refreshAtOf(license, 0)).toEqual(at(43_200_000));
    expect(policy.refreshAtOf(license, 1)).toEqual(at(43_200_000 + 8_640_000));
    expect(policy.refreshAtOf(license, 2)).toEqual(at(43_200_000 + 8_640_000));
    const lastDay = policy.licenseOf(key, ['a'], quota, new Date(quota.period.resetsAt.getTime() - 3_600_000));
    expect(policy.refreshAtOf(lastDay, 0.5)).toEqual(quota.period.resetsAt);
    const expiring = policy.licenseOf(makeApiKey({ ...key.props, expiresAt: at(60_000) }), ['a'], quota, T0);
    expect(policy.refreshAtOf(expiring, 0)).toEqual(at(60_000));
  });
});
