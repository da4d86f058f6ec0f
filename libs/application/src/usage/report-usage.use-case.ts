import { Injectable } from '@nestjs/common';
import {
  AnalyticsEventRepository,
  ApiKeyRepository,
  BillingPeriod,
  type RecentEvent,
  Clock,
  InvalidRequestError,
  TierCatalog,
  UsageBreakdown,
  UsageRepository,
} from '@svc/domain';
import { LicenseTarget, licenseKeysOf } from '../keys/license-keys';

export interface UsageReport extends UsageBreakdown {
  readonly keyId: string;
  /** The license whose usage this is: the key's and the keys it was rotated from or to (CONTRACT 16). */
  readonly licenseId: string;
  readonly period: string;
  readonly used: number;
  readonly monthlyLimit: number | null;
  /** The license's latest events, newest first (RECENT_EVENTS of them at most), whatever the period asked. */
  readonly recentEvents: readonly RecentEvent[];
}

/** How many of the license's latest events a usage report lists. */
export const RECENT_EVENTS = 20;

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

  /** By one of the license's keys (its id answered as key_id), or by the license (its current key's id answered). */
  async execute(input: LicenseTarget & { period?: string }): Promise<UsageReport> {
    const period = input.period === undefined ? BillingPeriod.containing(this.clock.now()) : BillingPeriod.parse(input.period);
    if (!period) throw new InvalidRequestError('period must be a month, YYYY-MM');
    const license = await licenseKeysOf(this.keys, input);
    const key = license.asked ?? license.current;
    const [used, breakdown, recentEvents] = await Promise.all([
      this.usage.usedIn(key.licenseId, period.key),
      this.events.breakdown(key.licenseId, period.key),
      this.events.recentEvents(key.licenseId, RECENT_EVENTS),
    ]);
    return {
      keyId: key.id,
      licenseId: key.licenseId,
      period: period.key,
      used,
      monthlyLimit: license.current.monthlyLimitUnder(this.catalog),
      ...breakdown,
      recentEvents,
    };
  }
}
