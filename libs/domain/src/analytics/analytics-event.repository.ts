import { AnalyticsEvent } from './analytics-event';
import { EventType } from './event-types';

/** Counts of one license's events in one period, for the operators' usage report. */
export interface UsageBreakdown {
  /** Events by the key that sent them (a license's keys: the chain of rotations). */
  readonly byKey: Readonly<Record<string, number>>;
  readonly byEventType: Readonly<Record<EventType, number>>;
  readonly byModel: Readonly<Record<string, number>>;
  readonly byOutcome: Readonly<{ success: number; failure: number; unreported: number }>;
}

/** Stored analytics events, appended together with their quota consumption. */
export abstract class AnalyticsEventRepository {
  /**
   * In one atomic step: consume `cost` units of the event's license and period within
   * `limit` (null: unlimited) and store the event. Refused (nothing stored,
   * nothing counted): `null`. Otherwise the period's `used` after the event.
   */
  abstract appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null>;

  /** The events of every key of the license in the period. */
  abstract breakdown(licenseId: string, period: string): Promise<UsageBreakdown>;
}
