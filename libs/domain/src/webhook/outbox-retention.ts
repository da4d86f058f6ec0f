import { BillingPeriod } from '../quota/billing-period';
import { utcDayOf } from '../analytics/usage-tally';
import { type WebhookEventType, KEY_EXPIRING_NOTICE_MS, WEBHOOK_EVENT_TYPES } from './webhook-event';

const DAY_MS = 24 * 3600 * 1000;

/**
 * What the outbox keeps (WEBHOOK_RETENTION_DAYS): a delivery that ended
 * (`succeeded` or `failed`) is pruned once its last attempt is older than the
 * retention; an event once it was fanned out before its type's instant here
 * and none of its deliveries is left. Two kinds of event are also the
 * once-only markers, so they are kept until they can no longer matter, plus
 * the retention:
 * - `key.expiring` (its id is the key's): recorded at most
 *   KEY_EXPIRING_NOTICE_MS before the key expires, and the check looks only
 *   at keys not expired yet (an expiry is never pushed later; a rotation
 *   shortens it). Kept KEY_EXPIRING_NOTICE_MS longer than the retention, the
 *   key has expired plus the retention by the time it goes, so it is never
 *   notified twice.
 * - `quota.warning` and `quota.exhausted` (one id per license and period):
 *   kept until their period has ended plus the retention, i.e. only those
 *   fanned out before the period containing `now - retention` began go. A
 *   notice of the current period is never pruned, however short the retention.
 * - `device.limit_reached` (one id per license and UTC day): kept until its
 *   day has ended plus the retention, i.e. only those fanned out before the
 *   UTC day containing `now - retention` began go.
 * An event is fanned out after it occurred, so an instant on `fanned_out_at`
 * bounds `occurred_at` too.
 */
export interface OutboxRetention {
  /** Deliveries that ended with their last attempt (or, never attempted, their creation) before this go. */
  readonly deliveriesEndedBefore: Date;
  /** Per type: an event fanned out before this, with no delivery left, goes. */
  readonly eventsFannedOutBefore: Readonly<Record<WebhookEventType, Date>>;
}

/** The outbox's retention at `now`, for `retentionDays` (WEBHOOK_RETENTION_DAYS) whole days. */
export function outboxRetention(now: Date, retentionDays: number): OutboxRetention {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const keyExpiring = new Date(cutoff.getTime() - KEY_EXPIRING_NOTICE_MS);
  const quotaNotices = BillingPeriod.containing(cutoff).startsAt;
  const limitNotices = new Date(`${utcDayOf(cutoff)}T00:00:00.000Z`);
  const before = (type: WebhookEventType): Date => {
    if (type === 'key.expiring') return keyExpiring;
    if (type === 'quota.warning' || type === 'quota.exhausted') return quotaNotices;
    return type === 'device.limit_reached' ? limitNotices : cutoff;
  };
  return {
    deliveriesEndedBefore: cutoff,
    eventsFannedOutBefore: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, before(type)])) as Record<WebhookEventType, Date>,
  };
}
