import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, TierCatalog, UsageRepository } from '@svc/domain';
import { LicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';

/**
 * POST /v1/auth/refresh: re-reads the key's license and current quota. It
 * neither extends expiry nor refuses an exhausted quota (CONTRACT 4 and 5).
 */
@Injectable()
export class RefreshApiKey {
  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly usage: UsageRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(presented: unknown): Promise<LicenseSnapshot> {
    const key = await this.authenticate.execute(presented);
    const period = BillingPeriod.containing(this.clock.now());
    const used = await this.usage.usedIn(key.id, period.key);
    return licenseSnapshotOf(key, this.catalog, used, period);
  }
}
