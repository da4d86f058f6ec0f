import { Injectable } from '@nestjs/common';
import { ApiKey, BillingPeriod, LicenseSigner, LicenseType, OfflineLicensePolicy, Quota, TierCatalog } from '@svc/domain';

/** What a key is entitled to right now: the body shared by validate and refresh. */
export interface LicenseSnapshot {
  readonly licenseType: LicenseType;
  readonly features: readonly string[];
  readonly quota: Quota;
  readonly expiresAt: Date;
  /** The key is old enough that rotating it is recommended (CONTRACT 16). */
  readonly rotationRecommended: boolean;
}

/** A snapshot with its signed offline license (CONTRACT 15), as validate and refresh answer it. */
export interface SignedLicenseSnapshot extends LicenseSnapshot {
  readonly licenseToken: string;
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

/**
 * Signs what a snapshot says into an offline license, fresh on every call:
 * the token carries the quota of this moment, so it is never cached.
 */
@Injectable()
export class OfflineLicenses {
  constructor(
    private readonly policy: OfflineLicensePolicy,
    private readonly signer: LicenseSigner,
  ) {}

  async sign(key: ApiKey, snapshot: LicenseSnapshot, now: Date): Promise<SignedLicenseSnapshot> {
    const licenseToken = await this.signer.sign(this.policy.licenseOf(key, snapshot.features, snapshot.quota, now));
    return { ...snapshot, licenseToken };
  }
}
