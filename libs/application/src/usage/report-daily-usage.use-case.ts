import { Injectable } from '@nestjs/common';
import { RECENT_EVENTS } from './report-usage.use-case';
import {
  AnalyticsEventRepository,
  ApiKey,
  ApiKeyRepository,
  BillingPeriod,
  Clock,
  DAY_MS,
  InvalidRequestError,
  KeyStatus,
  type RecentEvent,
  UsageBreakdown,
  daysBetween,
  parseUtcDay,
  tallyUsage,
  utcDayOf,
} from '@svc/domain';
import { LicenseTarget, licenseKeysOf } from '../keys/license-keys';

export interface DailyUsageInput extends LicenseTarget {
  /** `YYYY-MM-DD`; default: the first day of the month of `to` (UTC). */
  readonly from?: string;
  /** `YYYY-MM-DD`; default: today (UTC). */
  readonly to?: string;
}

/** One key of the license, with its status now (a rotated key's expiry is the end of its grace). */
export interface LicenseKey {
  readonly key: ApiKey;
  readonly status: KeyStatus;
}

export interface DailyUsageReport extends UsageBreakdown {
  readonly licenseId: string;
  /** The key asked by; null when asked by license. */
  readonly keyId: string | null;
  /** The license's keys (the chain of rotations), oldest first. */
  readonly keys: readonly LicenseKey[];
  readonly from: string;
  readonly to: string;
  /** Every day from `from` to `to`: the license's inferences received that day (0 when none), and by key (keys with some). */
  readonly days: ReadonlyArray<{ readonly date: string; readonly inferences: number; readonly byKey: Readonly<Record<string, number>> }>;
  /** The license's latest events, newest first (RECENT_EVENTS of them at most), whatever the range. */
  readonly recentEvents: readonly RecentEvent[];
}

/**
 * A license's events day by day over a range of UTC days (CONTRACT 16 and 17), asked by one of its
 * keys or by the license: every key of the chain counted, each day split by key, so the days of a
 * period add up to the quota gauge's `used` (inferences are what the quota counts). With the range's
 * breakdown and the license's keys.
 */
@Injectable()
export class ReportDailyUsage {
  static readonly MAX_DAYS = 366;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly events: AnalyticsEventRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: DailyUsageInput): Promise<DailyUsageReport> {
    const now = this.clock.now();
    const to = input.to === undefined ? parseUtcDay(utcDayOf(now)) : parseUtcDay(input.to);
    if (!to) throw new InvalidRequestError('to must be a day, YYYY-MM-DD');
    const from = input.from === undefined ? BillingPeriod.containing(to).startsAt : parseUtcDay(input.from);
    if (!from) throw new InvalidRequestError('from must be a day, YYYY-MM-DD');
    if (from.getTime() > to.getTime()) throw new InvalidRequestError('from must not be after to');
    if ((to.getTime() - from.getTime()) / DAY_MS + 1 > ReportDailyUsage.MAX_DAYS) {
      throw new InvalidRequestError(`from and to must span at most ${ReportDailyUsage.MAX_DAYS} days`);
    }
    const license = await licenseKeysOf(this.keys, input);
    const until = new Date(to.getTime() + DAY_MS);
    // a license has a handful of keys (one per rotation): each key's range on its own index
    const [usages, recentEvents] = await Promise.all([
      Promise.all(license.keys.map((key) => this.events.usageBetween(key.id, from, until))),
      this.events.recentEvents(license.licenseId, RECENT_EVENTS),
    ]);
    const perDay = new Map<string, Record<string, number>>();
    license.keys.forEach((key, i) => {
      for (const d of usages[i].inferencesPerDay) perDay.set(d.day, { ...perDay.get(d.day), [key.id]: d.events });
    });
    return {
      licenseId: license.licenseId,
      keyId: license.asked?.id ?? null,
      keys: license.keys.map((key) => ({ key, status: key.statusAt(now) })),
      from: utcDayOf(from),
      to: utcDayOf(to),
      days: daysBetween(from, to).map((date) => {
        const byKey = perDay.get(date) ?? {};
        return { date, inferences: Object.values(byKey).reduce((sum, n) => sum + n, 0), byKey };
      }),
      ...tallyUsage(usages.flatMap((u) => u.counts)),
      recentEvents,
    };
  }
}
