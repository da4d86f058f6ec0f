import { type AnalyticsEvent, quotaThresholdsOf } from '@svc/domain';
import { type OutboxBell } from '../typeorm/outbox';
import { EVENT_COLUMNS, eventValues } from '../typeorm/portable-sql';
import { type EventDating, SqlAnalyticsEventRepository } from '../typeorm/repositories/sql-analytics-event.repository';
import { type PreparedStatement } from '../typeorm/sql-statements';
import { type PostgresStatements } from './postgres-statements';

const INSERT_VALUES = EVENT_COLUMNS.split(',')
  .map((_, i) => `$${i + 1}`)
  .join(', ');

/**
 * The quota notices (CONTRACT 20) the consumption crossed, in the same
 * statement: a threshold (warning `$16`, exhausted the limit `$15`) is
 * crossed when the total before (`used - $14`) was below it and the total
 * after is not. One notice per license and period (its id), however many
 * cross it; the key by id (`$2`) and prefix (`$17`). Inserts no row unless
 * a threshold is crossed.
 */
const NOTICES = `notices AS (
     INSERT INTO webhook_events (id, type, occurred_at, data, fanned_out_at)
     SELECT t.type || ':' || $13 || ':' || $11, t.type, $12,
            json_build_object('license_id', $13, 'key_id', $2, 'key_prefix', $17::text, 'period', $11,
                              'limit', $15::bigint, 'threshold', t.at)::text, NULL
       FROM consumed, (VALUES ('quota.warning', $16::bigint), ('quota.exhausted', $15::bigint)) AS t(type, at)
      WHERE t.at > 0 AND consumed.used - $14 < t.at AND consumed.used >= t.at
     ON CONFLICT (id) DO NOTHING
     RETURNING 1)`;

/** A counter upsert (license `$13`, period `$11`, cost `$14`) with an optional guard, feeding the event insert (and `notices`). */
const consuming = (guard: string, notices: string | null) =>
  `WITH consumed AS (
     INSERT INTO usage_counters (license_id, period, used) VALUES ($13, $11, $14)
     ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used ${guard}
     RETURNING used),
   stored AS (
     INSERT INTO analytics_events (${EVENT_COLUMNS}) SELECT ${INSERT_VALUES} FROM consumed RETURNING 1)${
       notices === null
         ? ''
         : `,
   ${notices}`
     }
   SELECT used, (SELECT COUNT(*) FROM stored) AS stored${notices === null ? '' : ', (SELECT COUNT(*) FROM notices) AS notices'} FROM consumed`;

/**
 * On PostgreSQL an event and its consumption are one statement whose CTE
 * consumes and inserts together, so a refused consumption stores nothing.
 * Prepared once (named statements). Parameters: the 12 event columns, then
 * the license id (whose counter is consumed), the cost, then the limit, the
 * warning threshold and the key's prefix (NOTICES).
 */
export class PostgresAnalyticsEventRepository extends SqlAnalyticsEventRepository {
  /** `received_at` is a timestamptz: its day in UTC. */
  protected readonly dating: EventDating = {
    dayOf: (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    instant: (at) => at,
  };
  private readonly appendFree: PreparedStatement<{ used: string }>;
  private readonly appendWithinLimit: PreparedStatement<{ used: string; notices: string }>;
  private readonly appendUnlimited: PreparedStatement<{ used: string }>;

  constructor(postgres: PostgresStatements, bell: OutboxBell) {
    super(postgres, bell);
    this.appendFree = postgres.prepareNumbered(
      'event_append_free',
      `WITH stored AS (INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${INSERT_VALUES}) RETURNING 1)
       SELECT COALESCE((SELECT used FROM usage_counters WHERE license_id = $13 AND period = $11), 0) AS used,
              (SELECT COUNT(*) FROM stored) AS stored`,
    );
    this.appendWithinLimit = postgres.prepareNumbered(
      'event_append_consuming',
      consuming('WHERE usage_counters.used + excluded.used <= $15', NOTICES),
    );
    this.appendUnlimited = postgres.prepareNumbered('event_append_consuming_unlimited', consuming('', null));
  }

  protected async append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    const values = [...eventValues(event, { success: (ok) => ok, instant: (at) => at }), event.licenseId];
    if (cost === 0) return Number((await this.appendFree.first(values))?.used ?? 0);
    if (limit === null) {
      const row = await this.appendUnlimited.first([...values, cost]);
      return row === undefined ? null : Number(row.used);
    }
    const warningAt = quotaThresholdsOf(limit)[0].at;
    const row = await this.appendWithinLimit.first([...values, cost, limit, warningAt, event.keyPrefix]);
    if (row === undefined) return null;
    if (Number(row.notices) > 0) this.bell.ring();
    return Number(row.used);
  }
}
