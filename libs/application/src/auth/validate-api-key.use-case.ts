import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, KeyRotationPolicy, QuotaExceededError, TierCatalog, User } from '@svc/domain';
import { OfflineLicenses, SignedLicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';

export interface ValidateApiKeyOutput extends SignedLicenseSnapshot {
  readonly user: User;
}

/**
 * POST /v1/auth/validate: the authenticated key's user, license and quota,
 * with its signed offline license; QUOTA_EXCEEDED once used up. Works on the
 * one read authentication made.
 */
@Injectable()
export class ValidateApiKey {
  constructor(
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly licenses: OfflineLicenses,
    private readonly rotation: KeyRotationPolicy,
  ) {}

  /** `device`: the SHA-256 of the active device the call named, for the license's `device` claim (CONTRACT 23). */
  async execute({ key, user, used, license }: KeyContext, device: string | null = null): Promise<ValidateApiKeyOutput> {
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const snapshot = licenseSnapshotOf(key, this.catalog, used, period, this.rotation.isRecommendedFor(key, now));
    if (snapshot.quota.isExhausted) throw new QuotaExceededError(period, now);
    return { ...(await this.licenses.handOut(key, snapshot, now, device, license)), user };
  }
}
