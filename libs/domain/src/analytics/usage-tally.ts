import { EVENT_TYPES, type EventType } from './event-types';

/** Counts of a license's or a key's events, for the operators' reports (CONTRACT 12, 16, 17). */
export interface UsageBreakdown {
  /** Events by the key that sent them (a license's keys: the chain of rotations). */
  readonly byKey: Readonly<Record<string, number>>;
  readonly byEventType: Readonly<Record<EventType, number>>;
  readonly byModel: Readonly<Record<string, number>>;
  readonly byOutcome: Readonly<{ success: number; failure: number; unreported: number }>;
}

/** How many stored events share one key, event type, model and outcome (`success` null: not reported). */
export interface EventCount {
  readonly keyId: string;
  readonly eventType: EventType;
  readonly modelName: string | null;
  readonly success: boolean | null;
  readonly count: number;
}

/** One key's events over a range of time: inferences per UTC day, and the range's counts for tallyUsage. */
export interface RangeUsage {
  /** Inference events per UTC day (`YYYY-MM-DD`, by received time), days without any absent. */
  readonly inferencesPerDay: ReadonlyArray<{ readonly day: string; readonly events: number }>;
  readonly counts: readonly EventCount[];
}

/**
 * The one rule for a usage breakdown: every event type present (0 when none),
 * models and keys by name (events without a model not listed), outcomes as
 * success, failure and unreported.
 */
export function tallyUsage(counts: Iterable<EventCount>): UsageBreakdown {
  const byEventType = Object.fromEntries(EVENT_TYPES.map((t) => [t, 0])) as Record<EventType, number>;
  const models = new Map<string, number>();
  const keys = new Map<string, number>();
  const byOutcome = { success: 0, failure: 0, unreported: 0 };
  for (const c of counts) {
    byEventType[c.eventType] += c.count;
    keys.set(c.keyId, (keys.get(c.keyId) ?? 0) + c.count);
    if (c.modelName !== null) models.set(c.modelName, (models.get(c.modelName) ?? 0) + c.count);
    byOutcome[c.success === null ? 'unreported' : c.success ? 'success' : 'failure'] += c.count;
  }
  const byModel: Record<string, number> = {};
  for (const name of [...models.keys()].sort()) byModel[name] = models.get(name) ?? 0;
  const byKey: Record<string, number> = {};
  for (const id of [...keys.keys()].sort()) byKey[id] = keys.get(id) ?? 0;
  return { byKey, byEventType, byModel, byOutcome };
}

/** A UTC day, `YYYY-MM-DD`, of an instant. */
export function utcDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` to the first instant of that UTC day, or null when the text is not a calendar day. */
export function parseUtcDay(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return utcDayOf(at) === text ? at : null;
}

export const DAY_MS = 86_400_000;

/** Every UTC day from `from` to `to`, both included (first instants of the days). */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let t = from.getTime(); t <= to.getTime(); t += DAY_MS) days.push(utcDayOf(new Date(t)));
  return days;
}
