import {
  type AnalyticsEvent,
  AnalyticsEventRepository,
  type EventCount,
  type EventType,
  type EventsOnDay,
  type RangeUsage,
  type RecentEvent,
  type UsageBreakdown,
  tallyUsage,
} from '@svc/domain';
import { type PreparedStatement, type SqlStatements } from '../sql-statements';

type CountRow = { key_id: string; event_type: string; model_name: string | null; success: unknown; n: string | number };
type DayRow = { day: string; n: string | number };
type RecentRow = {
  id: string;
  key_id: string;
  event_type: string;
  model_name: string | null;
  received_at: string | Date;
  occurred_at: string | Date | null;
  received_via: string;
};

/** The groups every breakdown is tallied from (tallyUsage): key, type, model and outcome. */
const GROUPS = 'key_id, event_type, model_name, success';

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
 * database's own atomic step, in its module, which also runs inside a unit
 * of work's transaction (the quota notices the use case records with it).
 * No read-then-write anywhere.
 */
export abstract class SqlAnalyticsEventRepository extends AnalyticsEventRepository {
  private readonly byPeriod: PreparedStatement<CountRow>;
  private inferencesPerDay?: PreparedStatement<DayRow>;
  private byRange?: PreparedStatement<CountRow>;
  private perDay?: PreparedStatement<DayRow>;
  private licenseKeys?: PreparedStatement<{ id: unknown }>;
  private latestOfKey?: PreparedStatement<RecentRow>;

  constructor(private readonly statements: SqlStatements) {
    super();
    this.byPeriod = statements.prepare(
      'events_by_group',
      // the license's keys by the license index, then each key's events by its (key_id, period) index
      `SELECT ${GROUPS}, COUNT(*) AS n FROM analytics_events
        WHERE key_id IN (SELECT id FROM api_keys WHERE license_id = ?) AND period = ? GROUP BY ${GROUPS}`,
    );
  }

  /** How this database dates events. */
  protected abstract readonly dating: EventDating;

  async appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    if (refusedOutright(cost, limit)) return null;
    return this.append(event, cost, limit);
  }

  /** The database's atomic step; `cost` is within `limit` when there is one. */
  protected abstract append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  async breakdown(licenseId: string, period: string): Promise<UsageBreakdown> {
    return tallyUsage((await this.byPeriod.all([licenseId, period])).map(countOf));
  }

  /**
   * Two reads of the key's index entries in the range on (key_id, received_at,
   * event_type, success, model_name), which covers both: the days, and the
   * counts by type, outcome and model (each grouping far fewer rows than one
   * GROUP BY of day, type, outcome and model together).
   */
  async usageBetween(keyId: string, from: Date, until: Date): Promise<RangeUsage> {
    const day = this.dating.dayOf('received_at');
    const range = 'key_id = ? AND received_at >= ? AND received_at < ?';
    this.inferencesPerDay ??= this.statements.prepare(
      'inferences_per_day',
      `SELECT ${day} AS day, COUNT(*) AS n FROM analytics_events WHERE ${range} AND event_type = 'inference' GROUP BY ${day}`,
    );
    this.byRange ??= this.statements.prepare(
      'events_by_group_in_range',
      `SELECT key_id, event_type, success, model_name, COUNT(*) AS n FROM analytics_events WHERE ${range} GROUP BY key_id, event_type, success, model_name`,
    );
    const params = [keyId, this.dating.instant(from), this.dating.instant(until)];
    const [days, counts] = await Promise.all([this.inferencesPerDay.all(params), this.byRange.all(params)]);
    return {
      inferencesPerDay: days.map((row) => ({ day: String(row.day), events: Number(row.n) })).sort((a, b) => (a.day < b.day ? -1 : 1)),
      counts: counts.map(countOf),
    };
  }

  /**
   * Each of the license's keys' latest events on the index (key_id,
   * received_at), newest first, merged: a license has a handful of keys.
   */
  async recentEvents(licenseId: string, limit: number): Promise<RecentEvent[]> {
    const latest = Math.max(0, Math.trunc(limit));
    this.licenseKeys ??= this.statements.prepare('license_keys', 'SELECT id FROM api_keys WHERE license_id = ?');
    this.latestOfKey ??= this.statements.prepare(
      `latest_events_${latest}`,
      `SELECT id, key_id, event_type, model_name, received_at, occurred_at, received_via FROM analytics_events
        WHERE key_id = ? ORDER BY received_at DESC LIMIT ${latest}`,
    );
    const keys = await this.licenseKeys.all([licenseId]);
    const perKey = await Promise.all(keys.map((key) => this.latestOfKey!.all([String(key.id)])));
    return perKey
      .flat()
      .map(recentEventOf)
      .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
      .slice(0, latest);
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

/** A cost above the whole limit is refused without asking the database. */
export function refusedOutright(cost: number, limit: number | null): boolean {
  return limit !== null && cost > limit;
}

/** An instant as a driver reads it back: a Date (PostgreSQL, MySQL) or the ISO 8601 text this module wrote (SQLite). */
function instantOf(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

function recentEventOf(row: RecentRow): RecentEvent {
  const receivedAt = instantOf(row.received_at);
  return {
    id: String(row.id),
    keyId: String(row.key_id),
    eventType: row.event_type as EventType,
    modelName: row.model_name,
    receivedAt,
    // events stored before CONTRACT 22 were given their receipt by the migration; null only if one slipped through
    occurredAt: row.occurred_at === null ? receivedAt : instantOf(row.occurred_at),
    batched: row.received_via === 'batch',
  };
}

function countOf(row: CountRow): EventCount {
  return {
    keyId: String(row.key_id),
    eventType: row.event_type as EventType,
    modelName: row.model_name,
    // a boolean on PostgreSQL, 1/0 on SQLite and MySQL
    success: row.success === null ? null : row.success === true || Number(row.success) === 1,
    count: Number(row.n),
  };
}
