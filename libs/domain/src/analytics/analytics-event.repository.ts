import { type AnalyticsEvent, type EventType } from './analytics-event';
import { type RangeUsage, type UsageBreakdown } from './usage-tally';

/** Events received in one UTC day, all keys. */
export interface EventsOnDay {
  readonly day: string;
  readonly events: number;
}

/** One stored event as the operators' reports list it (CONTRACT 22): both times, and whether it came in a batch. */
export interface RecentEvent {
  readonly id: string;
  readonly keyId: string;
  readonly eventType: EventType;
  readonly modelName: string | null;
  readonly receivedAt: Date;
  readonly occurredAt: Date;
  readonly batched: boolean;
}

/** Stored analytics events, appended together with their quota consumption. */
export abstract class AnalyticsEventRepository {
  /**
   * In one atomic step: consume `cost` units of the event's license and period within
   * `limit` (null: unlimited) and store the event. Refused (nothing stored,
   * nothing counted): `null`. Otherwise the period's `used` after the event,
   * from which the caller learns the quota notices it raised (quotaNoticesOf)
   * and records them in the same unit of work: no read is added for them.
   */
  abstract appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  /** The events of every key of the license (the chain of rotations) in one billing period, tallied (tallyUsage). */
  abstract breakdown(licenseId: string, period: string): Promise<UsageBreakdown>;

  /**
   * One key's events received in [from, until): its inferences per UTC day,
   * and its events counted by type, model and outcome (for tallyUsage).
   */
  abstract usageBetween(keyId: string, from: Date, until: Date): Promise<RangeUsage>;

  /** The license's latest events (any of its keys), newest received first, at most `limit`. */
  abstract recentEvents(licenseId: string, limit: number): Promise<RecentEvent[]>;

  /** Every key's events received in [from, until), per UTC day (days without events absent), oldest first. */
  abstract eventsPerDay(from: Date, until: Date): Promise<EventsOnDay[]>;
}
