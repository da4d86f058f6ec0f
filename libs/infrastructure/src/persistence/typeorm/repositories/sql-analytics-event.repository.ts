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
import { type DataSource, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';

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
const GROUPS = ['key_id', 'event_type', 'model_name', 'success'] as const;

/** How a database's events are dated: the UTC day of `received_at`, and an instant as its driver binds it against that column. */
export interface EventDating {
  /** A SQL expression: the UTC day (`YYYY-MM-DD` text) of the column named. */
  dayOf(column: string): string;
  instant(at: Date): unknown;
}

/**
 * Stored events on a SQL database. The operators' reads are portable and
 * shared, on TypeORM's query builder (a database says only how it dates an
 * event, EventDating); appending an event together with its quota
 * consumption is each database's own atomic step, in its module, which also
 * runs inside a unit of work's transaction (the quota notices the use case
 * records with it). No read-then-write anywhere.
 */
export abstract class SqlAnalyticsEventRepository extends AnalyticsEventRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
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
    // the license's keys by the license index, then each key's events by its (key_id, period) index
    const rows = await this.counts()
      .where('e.key_id IN (SELECT id FROM api_keys WHERE license_id = :licenseId)', { licenseId })
      .andWhere('e.period = :period', { period })
      .getRawMany<CountRow>();
    return tallyUsage(rows.map(countOf));
  }

  /**
   * Two reads of the key's index entries in the range on (key_id, received_at,
   * event_type, success, model_name), which covers both: the days, and the
   * counts by type, outcome and model (each grouping far fewer rows than one
   * GROUP BY of day, type, outcome and model together).
   */
  async usageBetween(keyId: string, from: Date, until: Date): Promise<RangeUsage> {
    const inRange = (query: SelectQueryBuilder<ObjectLiteral>) =>
      query
        .where('e.key_id = :keyId', { keyId })
        .andWhere('e.received_at >= :from', { from: this.dating.instant(from) })
        .andWhere('e.received_at < :until', { until: this.dating.instant(until) });
    const [days, counts] = await Promise.all([
      inRange(this.perDay()).andWhere("e.event_type = 'inference'").getRawMany<DayRow>(),
      inRange(this.counts()).getRawMany<CountRow>(),
    ]);
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
    const keys = await this.dataSource
      .createQueryBuilder()
      .from('api_keys', 'k')
      .select('k.id', 'id')
      .where('k.license_id = :licenseId', { licenseId })
      .getRawMany<{ id: string }>();
    const latestOf = (keyId: string) =>
      this.dataSource
        .createQueryBuilder()
        .from('analytics_events', 'e')
        .select(['e.id AS id', 'e.key_id AS key_id', 'e.event_type AS event_type', 'e.model_name AS model_name'])
        .addSelect(['e.received_at AS received_at', 'e.occurred_at AS occurred_at', 'e.received_via AS received_via'])
        .where('e.key_id = :keyId', { keyId })
        .orderBy('e.received_at', 'DESC')
        .limit(latest)
        .getRawMany<RecentRow>();
    const perKey = await Promise.all(keys.map((key) => latestOf(String(key.id))));
    return perKey
      .flat()
      .map(recentEventOf)
      .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
      .slice(0, latest);
  }

  /** On the index (received_at): the range's entries only. */
  async eventsPerDay(from: Date, until: Date): Promise<EventsOnDay[]> {
    const rows = await this.perDay()
      .where('e.received_at >= :from', { from: this.dating.instant(from) })
      .andWhere('e.received_at < :until', { until: this.dating.instant(until) })
      .orderBy(this.dating.dayOf('e.received_at'))
      .getRawMany<DayRow>();
    return rows.map((row) => ({ day: String(row.day), events: Number(row.n) }));
  }

  /** Events counted by key, type, model and outcome (the groups every breakdown is tallied from, tallyUsage). */
  private counts(): SelectQueryBuilder<ObjectLiteral> {
    const query = this.dataSource.createQueryBuilder().from('analytics_events', 'e').select('COUNT(*)', 'n');
    for (const column of GROUPS) query.addSelect(`e.${column}`, column).addGroupBy(`e.${column}`);
    return query;
  }

  /** Events counted by their UTC day. */
  private perDay(): SelectQueryBuilder<ObjectLiteral> {
    const day = this.dating.dayOf('e.received_at');
    return this.dataSource.createQueryBuilder().from('analytics_events', 'e').select(day, 'day').addSelect('COUNT(*)', 'n').groupBy(day);
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
