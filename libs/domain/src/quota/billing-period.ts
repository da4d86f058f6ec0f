/**
 * The quota period: one calendar month in UTC (CONTRACT 4). `key` is
 * `YYYY-MM`; `resetsAt` is the first instant of the next month.
 */
export class BillingPeriod {
  private constructor(
    readonly key: string,
    readonly startsAt: Date,
    readonly resetsAt: Date,
  ) {}

  static containing(at: Date): BillingPeriod {
    return BillingPeriod.of(at.getUTCFullYear(), at.getUTCMonth() + 1);
  }

  /** `YYYY-MM` to a period, or `null` when the text is not a month. */
  static parse(key: string): BillingPeriod | null {
    const m = /^(\d{4})-(\d{2})$/.exec(key);
    if (!m) return null;
    const month = Number(m[2]);
    if (month < 1 || month > 12) return null;
    return BillingPeriod.of(Number(m[1]), month);
  }

  private static of(year: number, month: number): BillingPeriod {
    const startsAt = new Date(Date.UTC(year, month - 1, 1));
    const resetsAt = new Date(Date.UTC(year, month, 1));
    const key = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    return new BillingPeriod(key, startsAt, resetsAt);
  }

  /** Whole seconds from `now` until the period resets, at least 1. */
  secondsUntilReset(now: Date): number {
    return Math.max(1, Math.ceil((this.resetsAt.getTime() - now.getTime()) / 1000));
  }
}
