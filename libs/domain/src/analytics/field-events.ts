import { DomainError } from '../shared/domain-error';
import { type EventReport } from './analytics-event';

/**
 * Events from the field (CONTRACT 22): an SDK that retries, buffers offline
 * and uploads in batches names each event once, says when it happened, and
 * is charged once.
 */

/** 1 to 128 characters of `A-Z a-z 0-9 . _ : -`: a UUIDv7 fits, so does any id an SDK keeps. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}

/** How far from its receipt an event may say it occurred: a day offline fits many times over, a wrong clock does not. */
export const OCCURRED_AT_WINDOW = Object.freeze({ pastDays: 35, futureMinutes: 5 });

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Whether an event received at `receivedAt` may say it occurred at `occurredAt`. */
export function occurredAtAccepted(occurredAt: Date, receivedAt: Date): boolean {
  const offset = occurredAt.getTime() - receivedAt.getTime();
  return offset >= -OCCURRED_AT_WINDOW.pastDays * DAY_MS && offset <= OCCURRED_AT_WINDOW.futureMinutes * MINUTE_MS;
}

/** `POST /v1/analytics/batch`: 1 to 100 events in at most 1 MiB of body. */
export const BATCH_LIMITS = Object.freeze({ events: 100, bodyBytes: 1024 * 1024 });

/**
 * What an SDK reported about one event, as one text: two sends of an event
 * under one idempotency key are the same event when these agree. The time it
 * says it occurred counts as sent (null when absent), not as defaulted to
 * its receipt, so that a retry is compared with what its first send said.
 */
export function reportedFieldsOf(report: EventReport, occurredAt: Date | null): string {
  return canonicalJson({
    event_type: report.eventType,
    model_name: report.modelName,
    inference_type: report.inferenceType,
    duration_ms: report.durationMs,
    success: report.success,
    error_message: report.errorMessage,
    metadata: report.metadata,
    occurred_at: occurredAt === null ? null : occurredAt.toISOString(),
  });
}

/** JSON with every object's keys sorted: equal values give equal texts. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Units of quota a consumption of `wanted` may take when `used` of `limit`
 * (null: unlimited) are taken: all of them while they fit, then what is left.
 */
export function grantableUnits(wanted: number, used: number, limit: number | null): number {
  if (limit === null) return wanted;
  return Math.min(wanted, Math.max(0, limit - used));
}

/**
 * Events judged in order against `granted` units (CONTRACT 22): each event
 * that costs is accepted while units remain, and refused once they are
 * spent; an event that costs nothing is always accepted. Answers one
 * verdict per event, in order.
 */
export function acceptedInOrder(costs: readonly number[], granted: number): boolean[] {
  let left = granted;
  return costs.map((cost) => {
    if (cost === 0) return true;
    if (cost > left) return false;
    left -= cost;
    return true;
  });
}

/** A key sent again with an event that differs from the first one sent with it. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'IDEMPOTENCY_KEY_REUSED' as const;
  constructor() {
    super(
      'Idempotency key reused',
      'This idempotency_key was sent before with a different event; send the same event again, or a new key for a new event',
    );
  }
}
