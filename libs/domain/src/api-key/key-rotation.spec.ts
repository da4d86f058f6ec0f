import { DAY_MS, T0, makeApiKey } from '../../../../test/factories/domain.factory';
import { KeyRotationPolicy, ROTATION_GRACE_BOUNDS, isRotationGrace } from './key-rotation';

const identity = { id: 'key_new', digest: 'd'.repeat(64), displayPrefix: 'svc_live_abc' };

describe(KeyRotationPolicy.name, () => {
  const policy = new KeyRotationPolicy(86_400, 90);

  it('the successor inherits user, tier, environment, expiry, limit and license; only identity and creation are new', () => {
    const old = makeApiKey({
      environment: 'test',
      licenseType: 'commercial',
      monthlyLimit: { source: 'override', limit: 9 },
      licenseId: 'key_root',
    });
    const { successor } = policy.rotationOf(old, identity, T0);
    expect(successor.props).toEqual({
      ...old.props,
      ...identity,
      revokedAt: null,
      createdAt: T0,
      licenseId: 'key_root',
      rotatedFrom: old.id,
      rotatedTo: null,
    });
  });

  it('lowers the old expiry to the end of the grace (default, or asked), never raising it; 0 revokes at once', () => {
    const old = makeApiKey({ expiresAt: new Date(T0.getTime() + 3 * DAY_MS) });
    const byDefault = policy.rotationOf(old, identity, T0);
    expect(byDefault).toMatchObject({ predecessorExpiresAt: new Date(T0.getTime() + DAY_MS), predecessorRevokedAt: null });
    expect(KeyRotationPolicy.previousKeyStopsAt(byDefault)).toEqual(new Date(T0.getTime() + DAY_MS));
    expect(policy.rotationOf(old, identity, T0, 604_800).predecessorExpiresAt).toEqual(old.expiresAt);
    const now = policy.rotationOf(old, identity, T0, 0);
    expect(now).toMatchObject({ predecessorExpiresAt: old.expiresAt, predecessorRevokedAt: T0 });
    expect(KeyRotationPolicy.previousKeyStopsAt(now)).toEqual(T0);
  });

  it('recommends rotation from the configured age on', () => {
    const key = makeApiKey({ createdAt: T0 });
    expect(policy.isRecommendedFor(key, new Date(T0.getTime() + 90 * DAY_MS - 1))).toBe(false);
    expect(policy.isRecommendedFor(key, new Date(T0.getTime() + 90 * DAY_MS))).toBe(true);
    expect(new KeyRotationPolicy(0, 1).isRecommendedFor(key, new Date(T0.getTime() + DAY_MS))).toBe(true);
  });

  it('bounds the grace to 0..604800 whole seconds', () => {
    expect(ROTATION_GRACE_BOUNDS).toEqual({ min: 0, max: 604_800 });
    for (const ok of [0, 1, 86_400, 604_800]) expect(isRotationGrace(ok)).toBe(true);
    for (const bad of [-1, 604_801, 1.5, NaN, '60', null, undefined]) expect(isRotationGrace(bad)).toBe(false);
    expect(() => new KeyRotationPolicy(604_801, 90)).toThrow();
    expect(() => new KeyRotationPolicy(60, 0)).toThrow();
  });
});
