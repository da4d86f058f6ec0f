import { DAY_MS, T0, makeApiKey, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { ForbiddenError } from '../operator/operator.errors';
import { type Role } from '../operator/role';
import { type KeyTermChange, assertTermChangeAllowed, keyUpdateBoundsOf, termChangeNeeds } from './key-term-change';

const catalog = shippedTierCatalog();
/** A research key (tier limit 50000) expiring at T0 + 365 days. */
const expiresAt = new Date(T0.getTime() + 365 * DAY_MS);
const research = makeApiKey({ licenseType: 'research', expiresAt });
const needs = (change: KeyTermChange, key = research) => termChangeNeeds(key, change, catalog).map((n) => n.permission);
const override = (limit: number | null) => ({ source: 'override', limit }) as const;

describe(termChangeNeeds.name, () => {
  it('lowering a limit, going back to the tier, or raising within the tier needs nothing beyond keys.update', () => {
    expect(needs({ monthlyLimit: override(10) })).toEqual([]);
    expect(needs({ monthlyLimit: override(50_000) })).toEqual([]);
    expect(needs({ monthlyLimit: { source: 'tier' } })).toEqual([]);
    expect(needs({ monthlyLimit: override(40_000) }, makeApiKey({ licenseType: 'research', monthlyLimit: override(5) }))).toEqual([]);
  });

  it('a limit above the tier, or unlimited, needs keys.raise_limit, with the reason', () => {
    expect(needs({ monthlyLimit: override(50_001) })).toEqual(['keys.raise_limit']);
    expect(needs({ monthlyLimit: override(null) })).toEqual(['keys.raise_limit']);
    const [why] = termChangeNeeds(research, { monthlyLimit: override(60_000) }, catalog);
    expect(why.because).toBe("a monthly limit of 60000 is above the research tier's 50000");
  });

  it('an override above the tier set by an admin may be lowered, not raised; an unlimited key or tier has no ceiling', () => {
    const raised = makeApiKey({ licenseType: 'research', monthlyLimit: override(1_000_000) });
    expect(needs({ monthlyLimit: override(900_000) }, raised)).toEqual([]);
    expect(needs({ monthlyLimit: override(1_000_001) }, raised)).toEqual(['keys.raise_limit']);
    expect(needs({ monthlyLimit: override(null) }, makeApiKey({ licenseType: 'research', monthlyLimit: override(null) }))).toEqual([]);
    expect(needs({ monthlyLimit: override(10 ** 9) }, makeApiKey({ licenseType: 'enterprise' }))).toEqual([]);
    expect(needs({ monthlyLimit: override(null) }, makeApiKey({ licenseType: 'enterprise' }))).toEqual([]);
  });

  it('the limit is judged against the tier after the change, which itself needs keys.change_tier', () => {
    expect(needs({ licenseType: 'commercial', monthlyLimit: override(400_000) })).toEqual(['keys.change_tier']);
    expect(needs({ licenseType: 'free', monthlyLimit: override(60_000) })).toEqual(['keys.change_tier', 'keys.raise_limit']);
  });

  it("max_devices up to the higher of the tier's seats and the license's current override needs nothing more; above needs keys.raise_limit", () => {
    expect(needs({ maxDevices: { to: 0, current: null } })).toEqual([]);
    expect(needs({ maxDevices: { to: 3, current: null } })).toEqual([]);
    expect(needs({ maxDevices: { to: null, current: 50 } })).toEqual([]);
    expect(needs({ maxDevices: { to: 40, current: 50 } })).toEqual([]);
    expect(needs({ maxDevices: { to: 4, current: null } })).toEqual(['keys.raise_limit']);
    expect(needs({ maxDevices: { to: 51, current: 50 } })).toEqual(['keys.raise_limit']);
    expect(needs({ maxDevices: { to: 10 ** 6, current: null } }, makeApiKey({ licenseType: 'enterprise' }))).toEqual([]);
    const [why] = termChangeNeeds(research, { maxDevices: { to: 5, current: null } }, catalog);
    expect(why.because).toBe("max_devices of 5 is above the research tier's 3");
  });

  it('an expiry up to the default lifetime past the current one needs nothing more; later needs keys.extend_expiry', () => {
    expect(needs({ expiresAt: new Date(expiresAt.getTime() + 30 * DAY_MS) })).toEqual([]);
    expect(needs({ expiresAt: new Date(expiresAt.getTime() + 365 * DAY_MS) })).toEqual([]);
    expect(needs({ expiresAt: new Date(T0.getTime() - DAY_MS) })).toEqual([]);
    expect(needs({ expiresAt: new Date(expiresAt.getTime() + 365 * DAY_MS + 1000) })).toEqual(['keys.extend_expiry']);
  });
});

describe(keyUpdateBoundsOf.name, () => {
  it('answers the limit ceiling and the latest expiry a change within keys.update may set', () => {
    expect(keyUpdateBoundsOf(research, catalog, null)).toEqual({
      monthlyLimitMax: 50_000,
      maxDevicesMax: 3,
      expiresAtMax: new Date(expiresAt.getTime() + 365 * DAY_MS),
    });
    expect(keyUpdateBoundsOf(makeApiKey({ licenseType: 'enterprise' }), catalog, null).monthlyLimitMax).toBeNull();
    expect(keyUpdateBoundsOf(research, catalog, 10).maxDevicesMax).toBe(10);
    expect(keyUpdateBoundsOf(makeApiKey({ licenseType: 'enterprise' }), catalog, 5).maxDevicesMax).toBeNull();
  });
});

describe(assertTermChangeAllowed.name, () => {
  const attempt = (role: Role, change: KeyTermChange) => () => assertTermChangeAllowed(role, research, change, catalog);

  const refusal = (role: Role, change: KeyTermChange): ForbiddenError | null => {
    try {
      attempt(role, change)();
      return null;
    } catch (error) {
      if (!(error instanceof ForbiddenError)) throw error;
      return error;
    }
  };

  it('refuses support beyond the bounds with FORBIDDEN naming the admin role and why; admin and owner may', () => {
    const change = { monthlyLimit: override(null), expiresAt: new Date(expiresAt.getTime() + 3650 * DAY_MS) };
    expect(refusal('support', change)).toMatchObject({
      code: 'FORBIDDEN',
      roleNeeded: 'admin',
      hint: "This needs the admin role or higher (permission keys.raise_limit): an unlimited monthly limit is above the research tier's 50000",
    });
    expect(refusal('support', { expiresAt: change.expiresAt })?.hint).toMatch(
      /permission keys\.extend_expiry\): an expiry more than 365 days/,
    );
    expect(refusal('admin', change)).toBeNull();
    expect(refusal('owner', change)).toBeNull();
    expect(refusal('support', { monthlyLimit: override(1), expiresAt: new Date(expiresAt.getTime() + DAY_MS) })).toBeNull();
  });
});
