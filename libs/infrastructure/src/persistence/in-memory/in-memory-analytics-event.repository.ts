import { AnalyticsEvent, AnalyticsEventRepository, EVENT_TYPES, EventType, UsageBreakdown } from '@svc/domain';
import { InMemoryUsageRepository } from './in-memory-usage.repository';

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
    const used = cost === 0 ? this.usage.usedNow(event.licenseId, event.period) : this.usage.consumeNow(event.licenseId, event.period, cost, limit);
    if (used === null) return null;
    this.events.push(copyOf(event));
    return used;
  }

  async breakdown(licenseId: string, period: string): Promise<UsageBreakdown> {
    const keys = new Map<string, number>();
    const byEventType = Object.fromEntries(EVENT_TYPES.map((t) => [t, 0])) as Record<EventType, number>;
    const models = new Map<string, number>();
    const byOutcome = { success: 0, failure: 0, unreported: 0 };
    for (const event of this.events) {
      if (event.licenseId !== licenseId || event.period !== period) continue;
      keys.set(event.keyId, (keys.get(event.keyId) ?? 0) + 1);
      byEventType[event.eventType] += 1;
      if (event.modelName !== null) models.set(event.modelName, (models.get(event.modelName) ?? 0) + 1);
      byOutcome[event.success === null ? 'unreported' : event.success ? 'success' : 'failure'] += 1;
    }
    const byModel: Record<string, number> = {};
    for (const name of [...models.keys()].sort()) byModel[name] = models.get(name) ?? 0;
    const byKey: Record<string, number> = {};
    for (const id of [...keys.keys()].sort()) byKey[id] = keys.get(id) ?? 0;
    return { byKey, byEventType, byModel, byOutcome };
  }

  /** Everything stored, for tests that check what was (and was not) persisted. */
  all(): AnalyticsEvent[] {
    return this.events.map(copyOf);
  }
}

function copyOf(event: AnalyticsEvent): AnalyticsEvent {
  return {
    ...event,
    receivedAt: new Date(event.receivedAt.getTime()),
    metadata: event.metadata === null ? null : (JSON.parse(JSON.stringify(event.metadata)) as Record<string, unknown>),
  };
}
