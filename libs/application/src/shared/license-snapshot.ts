import { ApiKey, BillingPeriod, LicenseType, Quota, TierCatalog } from '@svc/domain';

/** What a key is entitled to right now: the body shared by validate and refresh. */
export interface LicenseSnapshot {
  readonly licenseType: LicenseType;
  readonly features: readonly string[];
  readonly quota: Quota;
  readonly expiresAt: Date;
  /** The key is old enough that rotating it is recommended (CONTRACT 16). */
  readonly rotationRecommended: boolean;
}

export function licenseSnapshotOf(
  key: ApiKey,
  catalog: TierCatalog,
  used: number,
  period: BillingPeriod,
  rotationRecommended = false,
): LicenseSnapshot {
  return {
    licenseType: key.licenseType,
    features: catalog.featuresOf(key.licenseType),
    quota: new Quota(key.monthlyLimitUnder(catalog), used, period),
    expiresAt: key.expiresAt,
    rotationRecommended,
  };
}
