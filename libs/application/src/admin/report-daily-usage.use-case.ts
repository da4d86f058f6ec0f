import { Injectable } from '@nestjs/common';
import {
  AnalyticsEventRepository,
  ApiKeyRepository,
  BillingPeriod,
  Clock,
  DAY_MS,
  InvalidRequestError,
  KeyNotFoundError,
  UsageBreakdown,
  daysBetween,
  parseUtcDay,
  tallyUsage,
  utcDayOf,
} from '@svc/domain';

export interface DailyUsageInput {
  readonly keyId: string;
  /** `YYYY-MM-DD`; default: the first day of the current month (UTC). */
  readonly from?: string;
  /** `YYYY-MM-DD`; default: today (UTC). */
  readonly to?: string;
}

export interface DailyUsageReport extends UsageBreakdown {
  readonly keyId: string;
  readonly from: string;
  readonly to: string;
  /** Every day from `from` to `to`, with the inferences received that day (0 when none). */
  readonly days: ReadonlyArray<{ readonly date: string; readonly inferences: number }>;
}

/** One key's events day by day over a range of UTC days (CONTRACT 17), with the range's breakdown. */
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
    const key = await this.keys.findById(input.keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    const counts = await this.events.dailyCounts(key.id, from, new Date(to.getTime() + DAY_MS));
    const inferences = new Map<string, number>();
    for (const c of counts) {
      if (c.eventType === 'inference') inferences.set(c.day, (inferences.get(c.day) ?? 0) + c.count);
    }
    return {
      keyId: key.id,
      from: utcDayOf(from),
      to: utcDayOf(to),
      days: daysBetween(from, to).map((date) => ({ date, inferences: inferences.get(date) ?? 0 })),
      ...tallyUsage(counts),
    };
  }
}
