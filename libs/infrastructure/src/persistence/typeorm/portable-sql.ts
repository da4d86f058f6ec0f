import { type AnalyticsEvent } from '@svc/domain';

/**
 * SQL every database speaks, written once with `?` placeholders; each
 * database's module runs it its own way (SqlStatements).
 */

/** A license's counter in a period (license id, period). */
export const USED_IN_PERIOD = 'SELECT used FROM usage_counters WHERE license_id = ? AND period = ?';

/** The columns of an analytics event, in the order the adapters bind them. */
export const EVENT_COLUMNS =
  'id, key_id, environment, event_type, model_name, inference_type, duration_ms, success, error_message, metadata, period, received_at, ' +
  'occurred_at, received_via';

export const INSERT_EVENT = `INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${EVENT_COLUMNS.split(',')
  .map(() => '?')
  .join(', ')})`;

/**
 * An event's column values in EVENT_COLUMNS order. A database module says how
 * its driver takes a boolean and an instant (the rest bind as they are).
 */
export function eventValues(
  event: AnalyticsEvent,
  as: { readonly success: (success: boolean) => unknown; readonly instant: (at: Date) => unknown },
): unknown[] {
  return [
    event.id,
    event.keyId,
    event.environment,
    event.eventType,
    event.modelName,
    event.inferenceType,
    event.durationMs,
    event.success === null ? null : as.success(event.success),
    event.errorMessage,
    event.metadata === null ? null : JSON.stringify(event.metadata),
    event.period,
    as.instant(event.receivedAt),
    as.instant(event.occurredAt),
    event.batched ? 'batch' : 'log',
  ];
}
