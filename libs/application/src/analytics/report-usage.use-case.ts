import { Injectable } from '@nestjs/common';
import {
  AnalyticsEventRepository,
  ApiKeyRepository,
  BillingPeriod,
  Clock,
  InvalidRequestError,
  KeyNotFoundError,
  TierCatalog,
  UsageBreakdown,
  UsageRepository,
} from '@svc/domain';

export interface UsageReport extends UsageBreakdown {
  readonly keyId: string;
  /** The license whose usage this is: the key's and the keys it was rotated from or to (CONTRACT 16). */
  readonly licenseId: string;
  readonly period: string;
  readonly used: number;
  readonly monthlyLimit: number | null;
}

/**
 * The operators' usage report of one key's license and month (CONTRACT 12
 * and 16: the license's counter, and which of its keys spent it); the current month by default.
 */
@Injectable()
export class ReportUsage {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly usage: UsageRepository,
    private readonly events: AnalyticsEventRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(input: { keyId: string; period?: string }): Promise<UsageReport> {
    const period = input.period === undefined ? BillingPeriod.containing(this.clock.now()) : BillingPeriod.parse(input.period);
    if (!period) throw new InvalidRequestError('period must be a month, YYYY-MM');
    const key = await this.keys.findById(input.keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    const [used, breakdown] = await Promise.all([
      this.usage.usedIn(key.licenseId, period.key),
      this.events.breakdown(key.licenseId, period.key),
    ]);
    return {
      keyId: key.id,
      licenseId: key.licenseId,
      period: period.key,
      used,
      monthlyLimit: key.monthlyLimitUnder(this.catalog),
      ...breakdown,
    };
  }
}
