import { AnalyticsEvent, AnalyticsEventRepository, EVENT_TYPES, EventType, UsageBreakdown } from '@svc/domain';
import { PreparedStatement, SqlStatements } from '../sql-statements';

type CountRow = { k: unknown; n: string | number };
/** The events of every key of a license (license id, period): the keys by the license index, then each key's events by its index. */
const WHERE = 'FROM analytics_events WHERE key_id IN (SELECT id FROM api_keys WHERE license_id = ?) AND period = ?';

/**
 * Stored events on a SQL database. The operators' breakdown is portable and
 * shared; appending an event together with its quota consumption is each
 * database's own atomic step, in its module. No read-then-write anywhere.
 */
export abstract class SqlAnalyticsEventRepository extends AnalyticsEventRepository {
  private readonly counts: Readonly<Record<'keys' | 'types' | 'models' | 'outcomes', PreparedStatement<CountRow>>>;

  constructor(statements: SqlStatements) {
    super();
    this.counts = {
      keys: statements.prepare('events_by_key', `SELECT key_id AS k, COUNT(*) AS n ${WHERE} GROUP BY key_id ORDER BY key_id`),
      types: statements.prepare('events_by_type', `SELECT event_type AS k, COUNT(*) AS n ${WHERE} GROUP BY event_type`),
      models: statements.prepare(
        'events_by_model',
        `SELECT model_name AS k, COUNT(*) AS n ${WHERE} AND model_name IS NOT NULL GROUP BY model_name ORDER BY model_name`,
      ),
      outcomes: statements.prepare('events_by_outcome', `SELECT success AS k, COUNT(*) AS n ${WHERE} GROUP BY success`),
    };
  }

  async appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    if (limit !== null && cost > limit) return null;
    return this.append(event, cost, limit);
  }

  /** The database's atomic step; `cost` is within `limit` when there is one. */
  protected abstract append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  async breakdown(licenseId: string, period: string): Promise<UsageBreakdown> {
    const params = [licenseId, period];
    const [keys, types, models, outcomes] = await Promise.all([
      this.counts.keys.all(params),
      this.counts.types.all(params),
      this.counts.models.all(params),
      this.counts.outcomes.all(params),
    ]);
    const byEventType = Object.fromEntries(EVENT_TYPES.map((t) => [t, 0])) as Record<EventType, number>;
    for (const row of types) byEventType[row.k as EventType] = Number(row.n);
    const byModel: Record<string, number> = {};
    for (const row of models) byModel[String(row.k)] = Number(row.n);
    const byKey: Record<string, number> = {};
    for (const row of keys) byKey[String(row.k)] = Number(row.n);
    const byOutcome = { success: 0, failure: 0, unreported: 0 };
    for (const row of outcomes) {
      // a boolean on PostgreSQL, 1/0 on SQLite and MySQL
      const outcome = row.k === null ? 'unreported' : row.k === true || Number(row.k) === 1 ? 'success' : 'failure';
      byOutcome[outcome] += Number(row.n);
    }
    return { byKey, byEventType, byModel, byOutcome };
  }
}
