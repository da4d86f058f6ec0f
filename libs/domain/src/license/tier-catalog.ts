import { LICENSE_TYPES, type LicenseType, isLicenseType } from './license-type';

/** What one tier grants: its features and its monthly limit (`null`: unlimited). */
export interface TierTerms {
  readonly features: readonly string[];
  readonly monthlyLimit: number | null;
}

/**
 * A tier's device policy (CONTRACT 23): how many devices a license may have active (`null`: unlimited),
 * how long a device holds its seat without being seen (`null`: until deactivated), and whether key calls
 * must name an active device.
 */
export interface DevicePolicy {
  readonly maxDevices: number | null;
  readonly leaseSeconds: number | null;
  readonly requireDevice: boolean;
}

/** The device policy of a tier whose entry in the tier file says nothing of devices (CONTRACT 23's defaults). */
export const DEFAULT_DEVICE_POLICIES: Readonly<Record<LicenseType, DevicePolicy>> = {
  free: { maxDevices: 1, leaseSeconds: null, requireDevice: false },
  research: { maxDevices: 3, leaseSeconds: null, requireDevice: false },
  commercial: { maxDevices: 25, leaseSeconds: null, requireDevice: false },
  enterprise: { maxDevices: null, leaseSeconds: null, requireDevice: false },
};

/** The largest `device_lease_seconds` a tier may give (one year). */
export const MAX_DEVICE_LEASE_SECONDS = 365 * 24 * 3600;

/** The largest `max_devices` a tier or a key may give (above it, use `null`: unlimited). */
export const MAX_DEVICES_BOUND = 1_000_000;

/**
 * The shape of `config/tiers.json`: each tier lists the features it adds to the tier below, its monthly
 * limit, and optionally its device policy (left out: CONTRACT 23's defaults).
 */
export interface TierCatalogSource {
  readonly [tier: string]: {
    readonly adds: readonly string[];
    readonly monthly_limit: number | null;
    readonly max_devices?: number | null;
    readonly device_lease_seconds?: number | null;
    readonly require_device?: boolean;
  };
}

/** A list of feature names, each a non-empty string (the source is JSON, so its declared type is checked). */
function isFeatureList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((feature) => typeof feature === 'string' && feature !== '');
}

/**
 * The feature matrix and monthly limits of the four tiers (CONTRACT 4). The
 * matrix lives in configuration; this class only checks it and answers from it.
 */
export class TierCatalog {
  private constructor(
    private readonly terms: ReadonlyMap<LicenseType, TierTerms>,
    private readonly devices: ReadonlyMap<LicenseType, DevicePolicy>,
  ) {}

  /** Builds the catalogue; throws with a plain sentence when the source is not a full matrix. */
  static fromSource(source: TierCatalogSource): TierCatalog {
    for (const name of Object.keys(source)) {
      if (!isLicenseType(name)) throw new Error(`unknown tier "${name}"`);
    }
    const terms = new Map<LicenseType, TierTerms>();
    const devices = new Map<LicenseType, DevicePolicy>();
    let inherited: string[] = [];
    for (const tier of LICENSE_TYPES) {
      const entry = source[tier];
      if (!entry) throw new Error(`tier "${tier}" is missing`);
      if (!isFeatureList(entry.adds)) {
        throw new Error(`tier "${tier}": "adds" must be a list of feature names`);
      }
      const limit = entry.monthly_limit;
      if (limit !== null && !(Number.isSafeInteger(limit) && limit >= 0)) {
        throw new Error(`tier "${tier}": "monthly_limit" must be an integer >= 0 or null`);
      }
      inherited = [...inherited, ...entry.adds.filter((f) => !inherited.includes(f))];
      terms.set(tier, { features: Object.freeze([...inherited]), monthlyLimit: limit });
      devices.set(tier, devicePolicyOf(tier, entry));
    }
    return new TierCatalog(terms, devices);
  }

  /** The tier's device policy (CONTRACT 23). */
  devicePolicyOf(tier: LicenseType): DevicePolicy {
    return this.devices.get(tier)!;
  }

  termsOf(tier: LicenseType): TierTerms {
    return this.terms.get(tier)!;
  }

  featuresOf(tier: LicenseType): readonly string[] {
    return this.termsOf(tier).features;
  }

  monthlyLimitOf(tier: LicenseType): number | null {
    return this.termsOf(tier).monthlyLimit;
  }
}

/** A tier entry's device policy, its fields checked (the source is JSON), CONTRACT 23's defaults where left out. */
function devicePolicyOf(tier: LicenseType, entry: TierCatalogSource[string]): DevicePolicy {
  const defaults = DEFAULT_DEVICE_POLICIES[tier];
  const maxDevices = entry.max_devices === undefined ? defaults.maxDevices : entry.max_devices;
  if (maxDevices !== null && !(Number.isSafeInteger(maxDevices) && maxDevices >= 0 && maxDevices <= MAX_DEVICES_BOUND)) {
    throw new Error(`tier "${tier}": "max_devices" must be an integer from 0 to ${MAX_DEVICES_BOUND} or null (unlimited)`);
  }
  const lease = entry.device_lease_seconds === undefined ? defaults.leaseSeconds : entry.device_lease_seconds;
  if (lease !== null && !(Number.isSafeInteger(lease) && lease >= 60 && lease <= MAX_DEVICE_LEASE_SECONDS)) {
    throw new Error(`tier "${tier}": "device_lease_seconds" must be an integer from 60 to ${MAX_DEVICE_LEASE_SECONDS} or null (no lease)`);
  }
  const requireDevice = entry.require_device === undefined ? defaults.requireDevice : entry.require_device;
  if (typeof requireDevice !== 'boolean') throw new Error(`tier "${tier}": "require_device" must be true or false`);
  return { maxDevices, leaseSeconds: lease, requireDevice };
}
