import {
  AnalyticsEvent,
  AnalyticsEventRepository,
  DailyEventCount,
  EventCount,
  EventType,
  EventsOnDay,
  UsageBreakdown,
  tallyUsage,
} from '@svc/domain';
import { PreparedStatement, SqlStatements } from '../sql-statements';

type CountRow = { event_type: string; model_name: string | null; success: unknown; n: string | number };
type DailyCountRow = CountRow & { day: string };
type DayRow = { day: string; n: string | number };

/** The groups every breakdown is tallied from (tallyUsage): type, model and outcome. */
const GROUPS = 'event_type, model_name, success';

/** How a database's events are dated: the UTC day of `received_at`, and an instant as its driver binds it against that column. */
export interface EventDating {
  /** A SQL expression: the UTC day (`YYYY-MM-DD` text) of the column named. */
  dayOf(column: string): string;
  instant(at: Date): unknown;
}

/**
 * Stored events on a SQL database. The operators' reads are portable and
 * shared (a database says only how it dates an event, EventDating);
 * appending an event together with its quota consumption is each
 * database's own atomic step, in its module. No read-then-write anywhere.
 */
export abstract class SqlAnalyticsEventRepository extends AnalyticsEventRepository {
  private readonly byPeriod: PreparedStatement<CountRow>;
  private byDay?: PreparedStatement<DailyCountRow>;
  private perDay?: PreparedStatement<DayRow>;

  constructor(private readonly statements: SqlStatements) {
    super();
    this.byPeriod = statements.prepare(
      'events_by_group',
      `SELECT ${GROUPS}, COUNT(*) AS n FROM analytics_events WHERE key_id = ? AND period = ? GROUP BY ${GROUPS}`,
    );
  }

  /** How this database dates events. */
  protected abstract readonly dating: EventDating;

  async appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    if (limit !== null && cost > limit) return null;
    return this.append(event, cost, limit);
  }

  /** The database's atomic step; `cost` is within `limit` when there is one. */
  protected abstract append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  async breakdown(keyId: string, period: string): Promise<UsageBreakdown> {
    return tallyUsage((await this.byPeriod.all([keyId, period])).map(countOf));
  }

  /** On the index (key_id, received_at): the key's events of the range only. */
  async dailyCounts(keyId: string, from: Date, until: Date): Promise<DailyEventCount[]> {
    const day = this.dating.dayOf('received_at');
    this.byDay ??= this.statements.prepare(
      'events_by_day_and_group',
      `SELECT ${day} AS day, ${GROUPS}, COUNT(*) AS n FROM analytics_events ` +
        `WHERE key_id = ? AND received_at >= ? AND received_at < ? GROUP BY ${day}, ${GROUPS}`,
    );
    const rows = await this.byDay.all([keyId, this.dating.instant(from), this.dating.instant(until)]);
    return rows.map((row) => ({ ...countOf(row), day: String(row.day) }));
  }

  /** On the index (received_at): the range's entries only. */
  async eventsPerDay(from: Date, until: Date): Promise<EventsOnDay[]> {
    const day = this.dating.dayOf('received_at');
    this.perDay ??= this.statements.prepare(
      'events_per_day',
      `SELECT ${day} AS day, COUNT(*) AS n FROM analytics_events WHERE received_at >= ? AND received_at < ? GROUP BY ${day} ORDER BY ${day}`,
    );
    const rows = await this.perDay.all([this.dating.instant(from), this.dating.instant(until)]);
    return rows.map((row) => ({ day: String(row.day), events: Number(row.n) }));
  }
}

function countOf(row: CountRow): EventCount {
  return {
    eventType: row.event_type as EventType,
    modelName: row.model_name,
    // a boolean on PostgreSQL, 1/0 on SQLite and MySQL
    success: row.success === null ? null : row.success === true || Number(row.success) === 1,
    count: Number(row.n),
  };
}
