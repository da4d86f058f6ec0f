import { type MaxDevicesOverride, maxDevicesOf } from '../device/device';
import { type LicenseType } from '../license/license-type';
import { type TierCatalog } from '../license/tier-catalog';
import { ForbiddenError } from '../operator/operator.errors';
import { type Permission, type Role, roleAllows } from '../operator/role';
import { toSecondTimestamp } from '../shared/timestamp';
import { type ApiKey, DEFAULT_KEY_LIFETIME_DAYS, type MonthlyLimitSetting } from './api-key';

const DAY_MS = 86_400_000;

/** A change of a key's terms as an operator asks for it (PATCH /admin/v1/keys/{id}, `keys update`): each given field changes. */
export interface KeyTermChange {
  readonly licenseType?: LicenseType;
  readonly expiresAt?: Date;
  readonly monthlyLimit?: MonthlyLimitSetting;
  /** The license's `max_devices` override (CONTRACT 23): what it becomes, and what it is now (both null: the tier's). */
  readonly maxDevices?: { readonly to: MaxDevicesOverride; readonly current: MaxDevicesOverride };
}

/**
 * How far `keys.update` alone (the support role) moves a key's terms: a limit
 * up to the higher of its tier's and its own (so lowering an admin's override
 * stays possible, raising above the tier does not), and an expiry up to the
 * default lifetime (DEFAULT_KEY_LIFETIME_DAYS, the same for every tier) past the
 * current one. Beyond either is an upgrade in all but name: `keys.raise_limit`
 * and `keys.extend_expiry` (admin).
 */
export interface KeyUpdateBounds {
  /** The highest monthly limit; null when there is none (the tier or the key is unlimited already: any limit, unlimited too). */
  readonly monthlyLimitMax: number | null;
  /** The highest `max_devices` override, judged as the monthly limit is; null when there is none (the tier or the license is unlimited). */
  readonly maxDevicesMax: number | null;
  /** The latest expiry. */
  readonly expiresAtMax: Date;
}

/** `maxDevicesOverride`: the key's license's (CONTRACT 23), null when it has none. */
export function keyUpdateBoundsOf(key: ApiKey, catalog: TierCatalog, maxDevicesOverride: MaxDevicesOverride): KeyUpdateBounds {
  const devices = catalog.devicePolicyOf(key.licenseType);
  return {
    monthlyLimitMax: limitCeilingOf(catalog.monthlyLimitOf(key.licenseType), key.monthlyLimitUnder(catalog)),
    maxDevicesMax: limitCeilingOf(devices.maxDevices, maxDevicesOf(devices, maxDevicesOverride)),
    expiresAtMax: expiryCeilingOf(key),
  };
}

/** What a permission beyond `keys.update` is needed for, in a change. */
export interface TermChangeNeed {
  readonly permission: Permission;
  /** Why, in words safe to show the operator. */
  readonly because: string;
}

/**
 * The permissions a change of `key`'s terms needs beyond `keys.update` (which
 * its route declares), each with the reason: a tier given (`keys.change_tier`),
 * a limit above the bounds or unlimited (`keys.raise_limit`), an expiry past the
 * bounds (`keys.extend_expiry`). The limit is judged against the tier the key
 * has after the change. Lowering a limit, going back to the tier's, shortening
 * or extending within the bounds need nothing more.
 */
export function termChangeNeeds(key: ApiKey, change: KeyTermChange, catalog: TierCatalog): TermChangeNeed[] {
  const needs: TermChangeNeed[] = [];
  if (change.licenseType !== undefined) {
    needs.push({ permission: 'keys.change_tier', because: `changing the tier (${key.licenseType} to ${change.licenseType})` });
  }
  if (change.monthlyLimit !== undefined && change.monthlyLimit.source === 'override') {
    const tier = change.licenseType ?? key.licenseType;
    const tierLimit = catalog.monthlyLimitOf(tier);
    const ceiling = limitCeilingOf(tierLimit, key.monthlyLimitUnder(catalog));
    const wanted = change.monthlyLimit.limit;
    if (ceiling !== null && (wanted === null || wanted > ceiling)) {
      needs.push({
        permission: 'keys.raise_limit',
        because:
          wanted === null
            ? `an unlimited monthly limit is above the ${tier} tier's ${tierLimit}`
            : `a monthly limit of ${wanted} is above the ${tier} tier's ${tierLimit}` +
              (tierLimit !== null && ceiling > tierLimit ? ` and the key's current ${ceiling}` : ''),
      });
    }
  }
  if (change.maxDevices !== undefined && change.maxDevices.to !== null) {
    // as the monthly limit: up to the higher of the tier's seats and the license's current ones; beyond is keys.raise_limit
    const tier = change.licenseType ?? key.licenseType;
    const tierMax = catalog.devicePolicyOf(tier).maxDevices;
    const ceiling = limitCeilingOf(tierMax, maxDevicesOf(catalog.devicePolicyOf(key.licenseType), change.maxDevices.current));
    const wanted = change.maxDevices.to;
    if (ceiling !== null && wanted > ceiling) {
      needs.push({
        permission: 'keys.raise_limit',
        because:
          `max_devices of ${wanted} is above the ${tier} tier's ${tierMax}` +
          (tierMax !== null && ceiling > tierMax ? ` and the license's current ${ceiling}` : ''),
      });
    }
  }
  if (change.expiresAt !== undefined) {
    const expiresAtMax = expiryCeilingOf(key);
    if (change.expiresAt.getTime() > expiresAtMax.getTime()) {
      needs.push({
        permission: 'keys.extend_expiry',
        because:
          `an expiry more than ${DEFAULT_KEY_LIFETIME_DAYS} days (the default lifetime) past the current ` +
          `${toSecondTimestamp(key.expiresAt)}; the latest without it is ${toSecondTimestamp(expiresAtMax)}`,
      });
    }
  }
  return needs;
}

/** Refuses (ForbiddenError, naming the role needed and why) a change of `key`'s terms that `role` may not make. */
export function assertTermChangeAllowed(role: Role, key: ApiKey, change: KeyTermChange, catalog: TierCatalog): void {
  const refused = termChangeNeeds(key, change, catalog).find((need) => !roleAllows(role, need.permission));
  if (refused) throw new ForbiddenError(refused.permission, refused.because);
}

/** The latest expiry keys.update alone may give: the default lifetime past the current one. */
function expiryCeilingOf(key: ApiKey): Date {
  return new Date(key.expiresAt.getTime() + DEFAULT_KEY_LIFETIME_DAYS * DAY_MS);
}

/** The highest limit within bounds: the tier's or the key's own, whichever is higher; null when either is unlimited. */
function limitCeilingOf(tierLimit: number | null, current: number | null): number | null {
  return tierLimit === null || current === null ? null : Math.max(tierLimit, current);
}
