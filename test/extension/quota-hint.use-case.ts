import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, KeyContext, Quota, TierCatalog } from '@svc/domain';

/** What the example endpoint answers: the key's quota this period. */
export interface QuotaHint {
  readonly used: number;
  readonly remaining: number | null;
}

/** The example's use case: orchestration only, rules from the domain (docs/EXTENDING.md, step 2). */
@Injectable()
export class ReadQuotaHint {
  constructor(
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  execute({ key, used }: KeyContext): QuotaHint {
    const quota = new Quota(key.monthlyLimitUnder(this.catalog), used, BillingPeriod.containing(this.clock.now()));
    return { used: quota.used, remaining: quota.remaining };
  }
}
