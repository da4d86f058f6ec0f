import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContextRepository, QuotaExceededError, TierCatalog, User } from '@svc/domain';
import { LicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';

export interface ValidateApiKeyOutput extends LicenseSnapshot {
  readonly user: User;
}

/**
 * POST /v1/auth/validate: the key's user, license and quota; QUOTA_EXCEEDED
 * once used up. The key, its user and its usage this period are one read.
 */
@Injectable()
export class ValidateApiKey {
  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly contexts: KeyContextRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(presented: unknown): Promise<ValidateApiKeyOutput> {
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const { key, user, used } = await this.authenticate.executeWith(
      presented,
      (digest) => this.contexts.findByDigest(digest, period.key),
      (context) => context.key,
    );
    const snapshot = licenseSnapshotOf(key, this.catalog, used, period);
    if (snapshot.quota.isExhausted) throw new QuotaExceededError(period, now);
    return { ...snapshot, user };
  }
}
