import { Injectable, Optional } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, KeyRotationPolicy, QuotaExceededError, TierCatalog, User } from '@svc/domain';
import { LicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';

export interface ValidateApiKeyOutput extends LicenseSnapshot {
  readonly user: User;
}

/**
 * POST /v1/auth/validate: the authenticated key's user, license and quota;
 * QUOTA_EXCEEDED once used up. Works on the one read authentication made.
 */
@Injectable()
export class ValidateApiKey {
  constructor(
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    @Optional() private readonly rotation: KeyRotationPolicy = new KeyRotationPolicy(),
  ) {}

  execute({ key, user, used }: KeyContext): ValidateApiKeyOutput {
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const snapshot = licenseSnapshotOf(key, this.catalog, used, period, this.rotation.isRecommendedFor(key, now));
    if (snapshot.quota.isExhausted) throw new QuotaExceededError(period, now);
    return { ...snapshot, user };
  }
}
