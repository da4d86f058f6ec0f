import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, TierCatalog } from '@svc/domain';
import { OfflineLicenses, SignedLicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';

/**
 * POST /v1/auth/refresh: the authenticated key's license and current quota,
 * with a new signed offline license. It neither extends expiry nor refuses an
 * exhausted quota (CONTRACT 4 and 5).
 */
@Injectable()
export class RefreshApiKey {
  constructor(
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly licenses: OfflineLicenses,
  ) {}

  execute({ key, used }: KeyContext): Promise<SignedLicenseSnapshot> {
    const now = this.clock.now();
    return this.licenses.sign(key, licenseSnapshotOf(key, this.catalog, used, BillingPeriod.containing(now)), now);
  }
}
