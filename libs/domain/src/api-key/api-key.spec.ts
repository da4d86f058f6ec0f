import { DAY_MS, T0, makeApiKey, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import {
  ApiKey,
  DEFAULT_KEY_LIFETIME_DAYS,
  MONTHLY_LIMIT_BOUNDS,
  type MonthlyLimitChoice,
  type MonthlyLimitSetting,
  defaultExpiryFrom,
  isMonthlyLimit,
  monthlyLimitSettingOf,
} from './api-key';

const EXPIRES = new Date('2026-06-01T00:00:00.000Z');
const ms = (at: Date, delta: number) => new Date(at.getTime() + delta);

describe(ApiKey.name, () => {
  describe('statusAt and verify', () => {
    const key = makeApiKey({ expiresAt: EXPIRES });

    it('is active before expires_at, up to the last millisecond', () => {
      expect(key.statusAt(T0)).toBe('active');
      expect(key.statusAt(ms(EXPIRES, -1))).toBe('active');
      expect(key.verify(ms(EXPIRES, -1))).toEqual({ ok: true });
    });

    it('is expired at exactly expires_at and after', () => {
      expect(key.statusAt(EXPIRES)).toBe('expired');
      expect(key.statusAt(ms(EXPIRES, 365 * DAY_MS))).toBe('expired');
      expect(key.verify(EXPIRES)).toEqual({ ok: false, reason: 'EXPIRED' });
    });

    it('is revoked from the moment it is revoked, whatever the time', () => {
      const revoked = makeApiKey({ expiresAt: EXPIRES, revokedAt: T0 });
      expect(revoked.statusAt(ms(T0, -DAY_MS))).toBe('revoked');
      expect(revoked.statusAt(T0)).toBe('revoked');
      expect(revoked.verify(T0)).toEqual({ ok: false, reason: 'REVOKED' });
    });

    it('reports revoked, not expired, when a key is both', () => {
      const both = makeApiKey({ expiresAt: EXPIRES, revokedAt: ms(EXPIRES, -DAY_MS) });
      expect(both.statusAt(ms(EXPIRES, DAY_MS))).toBe('revoked');
      expect(both.verify(ms(EXPIRES, DAY_MS))).toEqual({ ok: false, reason: 'REVOKED' });
    });

    it('treats a key issued already expired as expired', () => {
      const stale = makeApiKey({ createdAt: T0, expiresAt: ms(T0, -DAY_MS) });
      expect(stale.statusAt(T0)).toBe('expired');
    });
  });

  describe('monthlyLimitUnder', () => {
    const catalog = shippedTierCatalog();

    it.each([
      ['free', 10000],
      ['research', 50000],
      ['commercial', 500000],
      ['enterprise', null],
    ] as const)('follows the %s tier when set to the tier', (licenseType, limit) => {
      expect(makeApiKey({ licenseType, monthlyLimit: { source: 'tier' } }).monthlyLimitUnder(catalog)).toBe(limit);
    });

    it('uses an override over the tier, 0 and unlimited included', () => {
      expect(makeApiKey({ licenseType: 'free', monthlyLimit: { source: 'override', limit: 25 } }).monthlyLimitUnder(catalog)).toBe(25);
      expect(makeApiKey({ licenseType: 'free', monthlyLimit: { source: 'override', limit: 0 } }).monthlyLimitUnder(catalog)).toBe(0);
      expect(makeApiKey({ licenseType: 'free', monthlyLimit: { source: 'override', limit: null } }).monthlyLimitUnder(catalog)).toBeNull();
      expect(makeApiKey({ licenseType: 'enterprise', monthlyLimit: { source: 'override', limit: 100 } }).monthlyLimitUnder(catalog)).toBe(
        100,
      );
    });
  });

  describe('with', () => {
    it('returns a changed copy and leaves the original alone', () => {
      const key = makeApiKey({ licenseType: 'free' });
      const changed = key.with({ licenseType: 'commercial', monthlyLimit: { source: 'override', limit: null } });

      expect(changed.licenseType).toBe('commercial');
      expect(changed.props.monthlyLimit).toEqual({ source: 'override', limit: null });
      expect(changed.props.digest).toBe(key.props.digest);
      expect(changed.id).toBe(key.id);
      expect(key.licenseType).toBe('free');
      expect(key.props.monthlyLimit).toEqual({ source: 'tier' });
    });
  });
});

describe(defaultExpiryFrom.name, () => {
  it(`is ${DEFAULT_KEY_LIFETIME_DAYS} days of 24 hours after issuance`, () => {
    expect(DEFAULT_KEY_LIFETIME_DAYS).toBe(365);
    expect(defaultExpiryFrom(T0)).toEqual(new Date('2027-03-15T12:00:00.000Z'));
    expect(defaultExpiryFrom(new Date('2027-06-01T00:00:00.000Z'))).toEqual(new Date('2028-05-31T00:00:00.000Z'));
  });
});

describe(monthlyLimitSettingOf.name, () => {
  it.each<[string, MonthlyLimitChoice | undefined, MonthlyLimitSetting]>([
    ['undefined', undefined, { source: 'tier' }],
    ['"tier"', 'tier', { source: 'tier' }],
    ['null', null, { source: 'override', limit: null }],
    ['0', 0, { source: 'override', limit: 0 }],
    ['an integer', 1500, { source: 'override', limit: 1500 }],
    ['the largest safe integer', Number.MAX_SAFE_INTEGER, { source: 'override', limit: Number.MAX_SAFE_INTEGER }],
  ])('reads %s', (_, value, expected) => {
    expect(monthlyLimitSettingOf(value)).toEqual(expected);
  });

  it.each([
    ['a negative integer', -1],
    ['a fraction', 1.5],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['an unsafe integer', Number.MAX_SAFE_INTEGER + 1],
  ])('refuses %s', (_, value) => {
    expect(monthlyLimitSettingOf(value)).toBeUndefined();
  });
});

describe(isMonthlyLimit.name, () => {
  it('is a safe integer from MONTHLY_LIMIT_BOUNDS.min to .max', () => {
    expect(MONTHLY_LIMIT_BOUNDS).toEqual({ min: 0, max: Number.MAX_SAFE_INTEGER });
    expect([0, 1, 1500, Number.MAX_SAFE_INTEGER].map(isMonthlyLimit)).toEqual([true, true, true, true]);
    expect([-1, 0.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1].map(isMonthlyLimit)).toEqual([false, false, false, false, false]);
  });
});
