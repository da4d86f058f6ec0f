import { BillingPeriod } from '../quota/billing-period';
import { Quota } from '../quota/quota';
import { DAY_MS, T0, makeApiKey } from '../../../../test/factories/domain.factory';
import { MAX_OFFLINE_LICENSE_REUSE_MS, MAX_OFFLINE_LICENSE_TTL_SECONDS, OfflineLicensePolicy, termsOf } from './offline-license';

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

describe('OfflineLicensePolicy.isReusable', () => {
  const policy = new OfflineLicensePolicy(86_400);
  const key = makeApiKey({ licenseType: 'research' });
  const quota = new Quota(50000, 0, BillingPeriod.containing(T0));
  const signed = termsOf(policy.licenseOf(key, ['a'], quota, T0));
  const at = (ms: number) => new Date(T0.getTime() + ms);

  it('keeps what the license says and when it was issued, every instant as epoch milliseconds (no Date objects)', () => {
    const terms = termsOf(policy.licenseOf(key, ['a'], quota, at(5)));
    expect(terms).toEqual({
      keyId: key.id,
      userId: key.userId,
      licenseType: 'research',
      features: ['a'],
      monthlyLimit: 50000,
      resetsAtMs: quota.period.resetsAt.getTime(),
      keyExpiresAtMs: key.expiresAt.getTime(),
      environment: 'live',
      issuedAtMs: T0.getTime() + 5,
    });
    expect(Object.values(terms).some((value) => value instanceof Date)).toBe(false);
  });

  it('reuses a license that says the same for a hundredth of its lifetime after it was signed, at most an hour', () => {
    expect(policy.reuseMs).toBe(864_000);
    expect(policy.isReusable(signed, policy.licenseOf(key, ['a'], quota, at(0)))).toBe(true);
    expect(policy.isReusable(signed, policy.licenseOf(key, ['a'], quota, at(864_000 - 1)))).toBe(true);
    expect(policy.isReusable(signed, policy.licenseOf(key, ['a'], quota, at(864_000)))).toBe(false);
    expect(policy.isReusable(signed, policy.licenseOf(key, ['a'], quota, at(-1)))).toBe(false);
    expect(new OfflineLicensePolicy(604_800).reuseMs).toBe(MAX_OFFLINE_LICENSE_REUSE_MS);
    expect(new OfflineLicensePolicy(MAX_OFFLINE_LICENSE_TTL_SECONDS).reuseMs).toBe(3_600_000);
    expect(new OfflineLicensePolicy(60).reuseMs).toBe(600);
  });

  it('never reuses one whose terms changed: tier, features, limit, period, key expiry, environment', () => {
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
    ];
    for (const license of changed) expect(policy.isReusable(signed, license)).toBe(false);
    // what was used is not a term: the license does not carry it
    expect(policy.isReusable(signed, policy.licenseOf(key, ['a'], new Quota(50000, 999, quota.period), T0))).toBe(true);
  });
});
