import { AnalyticsEvent } from './analytics-event';
import { EventType } from './event-types';

/** Counts of one key's events in one period, for the operators' usage report. */
export interface UsageBreakdown {
  readonly byEventType: Readonly<Record<EventType, number>>;
  readonly byModel: Readonly<Record<string, number>>;
  readonly byOutcome: Readonly<{ success: number; failure: number; unreported: number }>;
}

/** Stored analytics events, appended together with their quota consumption. */
export abstract class AnalyticsEventRepository {
  /**
   * In one atomic step: consume `cost` units of the event's period within
   * `limit` (null: unlimited) and store the event. Refused (nothing stored,
   * nothing counted): `null`. Otherwise the period's `used` after the event.
   */
  abstract appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  abstract breakdown(keyId: string, period: string): Promise<UsageBreakdown>;
}
