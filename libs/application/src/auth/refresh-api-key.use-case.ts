import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, TierCatalog } from '@svc/domain';
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
  ) {}

  execute({ key, used }: KeyContext): LicenseSnapshot {
    return licenseSnapshotOf(key, this.catalog, used, BillingPeriod.containing(this.clock.now()));
  }
}
