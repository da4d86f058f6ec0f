import { DomainError } from '../shared/domain-error';
import { toSecondTimestamp } from '../shared/timestamp';
import { type BillingPeriod } from './billing-period';

/** The monthly quota is used up; it comes back at the period's reset. */
export class QuotaExceededError extends DomainError {
  readonly code = 'QUOTA_EXCEEDED' as const;
  readonly resetsAt: Date;
  /** Whole seconds until the reset, at least 1: the edge's `Retry-After`. */
  readonly retryAfterSeconds: number;

  constructor(period: BillingPeriod, now: Date) {
    super('Monthly quota exceeded', `Monthly quota used up; it resets at ${toSecondTimestamp(period.resetsAt)}`);
    this.resetsAt = period.resetsAt;
    this.retryAfterSeconds = period.secondsUntilReset(now);
  }
}
