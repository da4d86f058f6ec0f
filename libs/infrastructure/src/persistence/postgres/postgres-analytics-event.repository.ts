import { type AnalyticsEvent } from '@svc/domain';
import { EVENT_COLUMNS, eventValues } from '../typeorm/portable-sql';
import { type EventDating, SqlAnalyticsEventRepository } from '../typeorm/repositories/sql-analytics-event.repository';
import { type PreparedStatement } from '../typeorm/sql-statements';
import { type PostgresStatements } from './postgres-statements';

const INSERT_VALUES = EVENT_COLUMNS.split(',')
  .map((_, i) => `$${i + 1}`)
  .join(', ');

/** A counter upsert (license `$15`, period `$11`, cost `$16`) with an optional guard (the limit `$17`), feeding the event insert. */
const consuming = (guard: string) =>
  `WITH consumed AS (
     INSERT INTO usage_counters (license_id, period, used) VALUES ($15, $11, $16)
     ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used ${guard}
     RETURNING used),
   stored AS (
     INSERT INTO analytics_events (${EVENT_COLUMNS}) SELECT ${INSERT_VALUES} FROM consumed RETURNING 1)
   SELECT used, (SELECT COUNT(*) FROM stored) AS stored FROM consumed`;

/**
 * On PostgreSQL an event and its consumption are one statement whose CTE
 * consumes and inserts together, so a refused consumption stores nothing.
 * Prepared once (named statements). Parameters: the 14 event columns, then
 * the license id (whose counter is consumed), the cost, then the limit. In a
 * unit of work (PostgresUnitOfWork) the statement runs on the transaction's
 * client, with the quota notices the use case records after it.
 */
export class PostgresAnalyticsEventRepository extends SqlAnalyticsEventRepository {
  /** `received_at` is a timestamptz: its day in UTC. */
  protected readonly dating: EventDating = {
    dayOf: (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    instant: (at) => at,
  };
  private readonly appendFree: PreparedStatement<{ used: string }>;
  private readonly appendWithinLimit: PreparedStatement<{ used: string }>;
  private readonly appendUnlimited: PreparedStatement<{ used: string }>;

  constructor(postgres: PostgresStatements) {
    super(postgres.dataSource);
    this.appendFree = postgres.prepareNumbered(
      'event_append_free',
      `WITH stored AS (INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${INSERT_VALUES}) RETURNING 1)
       SELECT COALESCE((SELECT used FROM usage_counters WHERE license_id = $15 AND period = $11), 0) AS used,
              (SELECT COUNT(*) FROM stored) AS stored`,
    );
    this.appendWithinLimit = postgres.prepareNumbered(
      'event_append_consuming',
      consuming('WHERE usage_counters.used + excluded.used <= $17'),
    );
    this.appendUnlimited = postgres.prepareNumbered('event_append_consuming_unlimited', consuming(''));
  }

  protected async append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    const values = [...eventValues(event, { success: (ok) => ok, instant: (at) => at }), event.licenseId];
    if (cost === 0) return Number((await this.appendFree.first(values))?.used ?? 0);
    if (limit === null) {
      const row = await this.appendUnlimited.first([...values, cost]);
      return row === undefined ? null : Number(row.used);
    }
    const row = await this.appendWithinLimit.first([...values, cost, limit]);
    return row === undefined ? null : Number(row.used);
  }
}
