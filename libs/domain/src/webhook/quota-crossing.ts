import { type WebhookEvent } from './webhook-event';

/**
 * Quota notices (CONTRACT 20): `quota.warning` when a license's use of the
 * period reaches 80 % of its monthly limit, `quota.exhausted` at 100 %, each
 * at most once per license and period. A crossing is read off the atomic
 * consumption itself: the total before (`total - cost`) was below the
 * threshold and the total after is at or above it. Consumptions of one
 * counter are serialised by the database, so exactly one of any number of
 * concurrent consumptions crosses each threshold.
 */
export type QuotaNoticeType = 'quota.warning' | 'quota.exhausted';

export interface QuotaThreshold {
  readonly type: QuotaNoticeType;
  /** The `used` at which it is crossed. */
  readonly at: number;
}

export const QUOTA_WARNING_FRACTION = 0.8;

/** The two thresholds of a limit: 80 % (rounded up) and 100 %. */
export function quotaThresholdsOf(limit: number): readonly QuotaThreshold[] {
  return [
    { type: 'quota.warning', at: Math.ceil(limit * QUOTA_WARNING_FRACTION) },
    { type: 'quota.exhausted', at: limit },
  ];
}

/** The thresholds a consumption of `cost` that brought the total to `total` crossed (none for unlimited or free events). */
export function quotaCrossings(limit: number | null, cost: number, total: number): readonly QuotaThreshold[] {
  if (limit === null || !mayRaiseQuotaNotices(limit, cost)) return [];
  return quotaThresholdsOf(limit).filter((t) => t.at > 0 && total - cost < t.at && total >= t.at);
}

/** The one notice of a type per license and period: the outbox keeps it under this id, so a second is never recorded. */
export function quotaNoticeId(type: QuotaNoticeType, licenseId: string, period: string): string {
  return `${type}:${licenseId}:${period}`;
}

/** What a quota notice says: the license, the key that crossed it (id and prefix), the period, the limit and the threshold. */
export function quotaNoticeData(
  subject: { licenseId: string; keyId: string; keyPrefix: string; period: string },
  limit: number,
  threshold: QuotaThreshold,
): Record<string, unknown> {
  return {
    license_id: subject.licenseId,
    key_id: subject.keyId,
    key_prefix: subject.keyPrefix,
    period: subject.period,
    limit,
    threshold: threshold.at,
  };
}

/** Who consumed and when: the key (id and prefix), its license, the period and the instant of the consumption. */
export interface QuotaConsumer {
  readonly licenseId: string;
  readonly keyId: string;
  readonly keyPrefix: string;
  readonly period: string;
  readonly at: Date;
}

/** Whether a consumption of `cost` under `limit` can raise a quota notice at all (a limited, costed one). */
export function mayRaiseQuotaNotices(limit: number | null, cost: number): boolean {
  return limit !== null && cost > 0;
}

/**
 * The quota notices a consumption raises (CONTRACT 20): one per threshold it
 * crossed (quotaCrossings), each under its one id per license and period
 * (quotaNoticeId), so that the outbox records it once however many record it
 * (WebhookOutbox.recordOnce). None almost always.
 */
export function quotaNoticesOf(consumer: QuotaConsumer, limit: number | null, cost: number, total: number): WebhookEvent[] {
  if (limit === null) return [];
  return quotaCrossings(limit, cost, total).map((threshold) => ({
    id: quotaNoticeId(threshold.type, consumer.licenseId, consumer.period),
    type: threshold.type,
    occurredAt: consumer.at,
    data: quotaNoticeData(consumer, limit, threshold),
  }));
}
