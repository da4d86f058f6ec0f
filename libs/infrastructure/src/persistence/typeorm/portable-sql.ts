import { AnalyticsEvent } from '@svc/domain';

/**
 * SQL written once with `?` placeholders and shared by the databases that
 * speak it; each database's module runs it its own way. The counter upserts
 * need `INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING` (SQLite 3.35+
 * and PostgreSQL); the rest is portable to all three.
 */

/** The period's counter plus the cost: parameters key id, period, cost. */
const UPSERT_COUNTER =
  'INSERT INTO usage_counters (key_id, period, used) VALUES (?, ?, ?) ' +
  'ON CONFLICT (key_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';

/** Consumes within a limit (4th parameter), answering the new total; no row: refused, nothing changed. */
export const CONSUME_WITHIN_LIMIT = `${UPSERT_COUNTER} WHERE usage_counters.used + excluded.used <= ? RETURNING used`;

/** Consumes without a limit, answering the new total. */
export const CONSUME_UNLIMITED = `${UPSERT_COUNTER} RETURNING used`;

export const USED_IN_PERIOD = 'SELECT used FROM usage_counters WHERE key_id = ? AND period = ?';

/** The columns of an analytics event, in the order the adapters bind them. */
export const EVENT_COLUMNS =
  'id, key_id, environment, event_type, model_name, inference_type, duration_ms, success, error_message, metadata, period, received_at';

export const INSERT_EVENT = `INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${EVENT_COLUMNS.split(',').map(() => '?').join(', ')})`;

/**
 * An event's column values in EVENT_COLUMNS order. A database module says how
 * its driver takes a boolean and an instant (the rest bind as they are).
 */
export function eventValues(
  event: AnalyticsEvent,
  as: { readonly success: (success: boolean) => unknown; readonly instant: (at: Date) => unknown },
): unknown[] {
  return [
    event.id, event.keyId, event.environment, event.eventType, event.modelName, event.inferenceType, event.durationMs,
    event.success === null ? null : as.success(event.success), event.errorMessage,
    event.metadata === null ? null : JSON.stringify(event.metadata), event.period, as.instant(event.receivedAt),
  ];
}
