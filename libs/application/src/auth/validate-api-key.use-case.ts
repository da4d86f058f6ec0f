import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, QuotaExceededError, TierCatalog, UsageRepository, User, UserRepository } from '@svc/domain';
import { LicenseSnapshot, licenseSnapshotOf } from '../shared/license-snapshot';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';

export interface ValidateApiKeyOutput extends LicenseSnapshot {
  readonly user: User;
}

/** POST /v1/auth/validate: the key's user, license and quota; QUOTA_EXCEEDED once used up. */
@Injectable()
export class ValidateApiKey {
  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly users: UserRepository,
    private readonly usage: UsageRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(presented: unknown): Promise<ValidateApiKeyOutput> {
    const key = await this.authenticate.execute(presented);
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const [user, used] = await Promise.all([this.users.findById(key.userId), this.usage.usedIn(key.id, period.key)]);
    if (!user) throw new Error(`key ${key.id} has no user ${key.userId}`);
    const snapshot = licenseSnapshotOf(key, this.catalog, used, period);
    if (snapshot.quota.isExhausted) throw new QuotaExceededError(period, now);
    return { ...snapshot, user };
  }
}
