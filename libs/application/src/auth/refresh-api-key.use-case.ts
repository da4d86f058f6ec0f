import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, KeyRotationPolicy, TierCatalog } from '@svc/domain';
import { OfflineLicenses, SignedLicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';

/**
 * POST /v1/auth/refresh: the authenticated key's license and current quota,
 * with a new signed offline license and whether to rotate the key. It neither
 * extends expiry nor refuses an exhausted quota (CONTRACT 4 and 5).
 */
@Injectable()
export class RefreshApiKey {
  constructor(
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly licenses: OfflineLicenses,
    private readonly rotation: KeyRotationPolicy,
  ) {}

  /** `device`: the SHA-256 of the active device the call named, for the license's `device` claim (CONTRACT 23). */
  execute({ key, used, license }: KeyContext, device: string | null = null): Promise<SignedLicenseSnapshot> {
    const now = this.clock.now();
    const snapshot = licenseSnapshotOf(key, this.catalog, used, BillingPeriod.containing(now), this.rotation.isRecommendedFor(key, now));
    return this.licenses.handOut(key, snapshot, now, device, license);
  }
}
