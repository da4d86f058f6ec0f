import {
  type AnalyticsEvent,
  AnalyticsEventRepository,
  type EventCount,
  type EventsOnDay,
  type RangeUsage,
  type RecentEvent,
  type UsageBreakdown,
  tallyUsage,
  utcDayOf,
} from '@svc/domain';
import { type InMemoryUsageRepository } from './in-memory-usage.repository';

/**
 * Analytics events in an array, for use-case tests only, consuming from the
 * counters of an InMemoryUsageRepository (as the SQL adapter shares
 * `usage_counters` with the usage port). `appendConsuming` checks, consumes
 * and stores within one synchronous step: a refused event stores nothing and
 * counts nothing, and no concurrent caller can slip in between.
 */
export class InMemoryAnalyticsEventRepository extends AnalyticsEventRepository {
  private readonly events: AnalyticsEvent[] = [];

  constructor(private readonly usage: InMemoryUsageRepository) {
    super();
  }

  async appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    // As the SQL primary key: a second event with the same id fails, and nothing is counted.
    if (this.events.some((e) => e.id === event.id)) throw new Error(`duplicate analytics event id ${event.id}`);
    // A zero cost consumes nothing and is never refused (the SQL adapter only reads the counter then).
    const used =
      cost === 0 ? this.usage.usedNow(event.licenseId, event.period) : this.usage.consumeNow(event.licenseId, event.period, cost, limit);
    if (used === null) return null;
    this.events.push(copyOf(event));
    return used;
  }

  async storeAll(events: readonly AnalyticsEvent[]): Promise<void> {
    for (const event of events) {
      if (this.events.some((e) => e.id === event.id)) throw new Error(`duplicate analytics event id ${event.id}`);
    }
    this.events.push(...events.map(copyOf));
  }

  async breakdown(licenseId: string, period: string): Promise<UsageBreakdown> {
    return tallyUsage(countsOf(this.events.filter((e) => e.licenseId === licenseId && e.period === period)));
  }

  async usageBetween(keyId: string, from: Date, until: Date): Promise<RangeUsage> {
    const events = this.events.filter((e) => e.keyId === keyId && within(e, from, until));
    const perDay = new Map<string, number>();
    for (const e of events) {
      if (e.eventType === 'inference') perDay.set(utcDayOf(e.receivedAt), (perDay.get(utcDayOf(e.receivedAt)) ?? 0) + 1);
    }
    return {
      inferencesPerDay: [...perDay.keys()].sort().map((day) => ({ day, events: perDay.get(day) ?? 0 })),
      counts: countsOf(events),
    };
  }

  async recentEvents(licenseId: string, limit: number): Promise<RecentEvent[]> {
    return this.events
      .filter((e) => e.licenseId === licenseId)
      .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
      .slice(0, limit)
      .map((e) => ({
        id: e.id,
        keyId: e.keyId,
        eventType: e.eventType,
        modelName: e.modelName,
        receivedAt: e.receivedAt,
        occurredAt: e.occurredAt,
        batched: e.batched,
      }));
  }

  async eventsPerDay(from: Date, until: Date): Promise<EventsOnDay[]> {
    const byDay = new Map<string, number>();
    for (const e of this.events) {
      if (within(e, from, until)) byDay.set(utcDayOf(e.receivedAt), (byDay.get(utcDayOf(e.receivedAt)) ?? 0) + 1);
    }
    return [...byDay.keys()].sort().map((day) => ({ day, events: byDay.get(day) ?? 0 }));
  }

  /** Everything stored, for tests that check what was (and was not) persisted. */
  all(): AnalyticsEvent[] {
    return this.events.map(copyOf);
  }
}

function within(event: AnalyticsEvent, from: Date, until: Date): boolean {
  const t = event.receivedAt.getTime();
  return t >= from.getTime() && t < until.getTime();
}

/** Events counted by type, model and outcome, as the SQL adapters' GROUP BY. */
function countsOf(events: readonly AnalyticsEvent[]): EventCount[] {
  const counts = new Map<string, EventCount>();
  for (const e of events) {
    const slot = JSON.stringify([e.keyId, e.eventType, e.modelName, e.success]);
    const seen = counts.get(slot);
    counts.set(slot, { keyId: e.keyId, eventType: e.eventType, modelName: e.modelName, success: e.success, count: (seen?.count ?? 0) + 1 });
  }
  return [...counts.values()];
}

function copyOf(event: AnalyticsEvent): AnalyticsEvent {
  return {
    ...event,
    receivedAt: new Date(event.receivedAt.getTime()),
    occurredAt: new Date(event.occurredAt.getTime()),
    metadata: event.metadata === null ? null : (JSON.parse(JSON.stringify(event.metadata)) as Record<string, unknown>),
  };
}
