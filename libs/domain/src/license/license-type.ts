/** The four license tiers, lowest first: the array order is the rank. */
export const LICENSE_TYPES = ['free', 'research', 'commercial', 'enterprise'] as const;

export type LicenseType = (typeof LICENSE_TYPES)[number];

export function isLicenseType(value: unknown): value is LicenseType {
  return typeof value === 'string' && (LICENSE_TYPES as readonly string[]).includes(value);
}

/** 0 for free up to 3 for enterprise. */
export function rankOf(tier: LicenseType): number {
  return LICENSE_TYPES.indexOf(tier);
}

/** True when `held` is at least `required`. */
export function meetsTier(held: LicenseType, required: LicenseType): boolean {
  return rankOf(held) >= rankOf(required);
}
