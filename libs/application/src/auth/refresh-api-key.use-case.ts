import { Injectable, Optional } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, KeyRotationPolicy, TierCatalog } from '@svc/domain';
import { LicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';

/**
 * POST /v1/auth/refresh: the authenticated key's license and current quota.
 * It neither extends expiry nor refuses an exhausted quota (CONTRACT 4 and 5).
 */
@Injectable()
export class RefreshApiKey {
  constructor(
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    @Optional() private readonly rotation: KeyRotationPolicy = new KeyRotationPolicy(),
  ) {}

  execute({ key, used }: KeyContext): LicenseSnapshot {
    const now = this.clock.now();
    return licenseSnapshotOf(key, this.catalog, used, BillingPeriod.containing(now), this.rotation.isRecommendedFor(key, now));
  }
}
