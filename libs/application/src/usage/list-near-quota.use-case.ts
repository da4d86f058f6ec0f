import { Injectable } from '@nestjs/common';
import { BillingPeriod, Clock, LICENSE_TYPES, LicenseType, TierCatalog } from '@svc/domain';
import { KeyDirectory, KeyUsage, NearQuotaPosition } from '../keys/key-directory';

export interface NearQuotaPage {
  readonly keys: readonly KeyUsage[];
  /** Where the next page starts; null on the last page. */
  readonly next: NearQuotaPosition | null;
}

/** Each tier's monthly limit (null: unlimited), as the key directory compares keys that follow their tier. */
export function tierLimitsOf(catalog: TierCatalog): Record<LicenseType, number | null> {
  return Object.fromEntries(LICENSE_TYPES.map((t) => [t, catalog.monthlyLimitOf(t)])) as Record<LicenseType, number | null>;
}

/**
 * Every key at or near its quota this period: at least NEAR_QUOTA_PERCENT of the limit in
 * force, highest share first (ties by key id), a page at a time after a position.
 */
@Injectable()
export class ListNearQuota {
  static readonly NEAR_QUOTA_PERCENT = 80;
  static readonly DEFAULT_LIMIT = 50;
  static readonly MAX_LIMIT = 200;

  constructor(
    private readonly directory: KeyDirectory,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(input: { after?: NearQuotaPosition; limit?: number }): Promise<NearQuotaPage> {
    const limit = input.limit ?? ListNearQuota.DEFAULT_LIMIT;
    const found = await this.directory.nearQuota({
      period: BillingPeriod.containing(this.clock.now()).key,
      tierLimits: tierLimitsOf(this.catalog),
      atLeastPercent: ListNearQuota.NEAR_QUOTA_PERCENT,
      after: input.after,
      limit: limit + 1,
    });
    const keys = found.slice(0, limit);
    const last = keys[keys.length - 1];
    return { keys, next: found.length > limit && last ? { used: last.used, monthlyLimit: last.monthlyLimit, keyId: last.key.id } : null };
  }
}
