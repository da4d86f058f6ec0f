import { AnalyticsEvent } from './analytics-event';
import { DailyEventCount, UsageBreakdown } from './usage-tally';

/** Events received in one UTC day, all keys. */
export interface EventsOnDay {
  readonly day: string;
  readonly events: number;
}

/** Stored analytics events, appended together with their quota consumption. */
export abstract class AnalyticsEventRepository {
  /**
   * In one atomic step: consume `cost` units of the event's period within
   * `limit` (null: unlimited) and store the event. Refused (nothing stored,
   * nothing counted): `null`. Otherwise the period's `used` after the event.
   */
  abstract appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  /** One key's events in one billing period, tallied (tallyUsage). */
  abstract breakdown(keyId: string, period: string): Promise<UsageBreakdown>;

  /**
   * One key's events received in [from, until), counted per UTC day, event
   * type, model and outcome (days without events absent), for tallyUsage and
   * the daily series.
   */
  abstract dailyCounts(keyId: string, from: Date, until: Date): Promise<DailyEventCount[]>;

  /** Every key's events received in [from, until), per UTC day (days without events absent), oldest first. */
  abstract eventsPerDay(from: Date, until: Date): Promise<EventsOnDay[]>;
}
