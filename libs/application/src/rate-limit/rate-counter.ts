/** The outcome of counting one request against a window's limit. */
export interface RateVerdict {
  readonly allowed: boolean;
  /** Requests left in the window after this one. */
  readonly remaining: number;
  /** When the window ends, in ms since the epoch. */
  readonly resetAtMs: number;
  /** Whole seconds until the window ends, at least 1 (the `Retry-After` of a refusal). */
  readonly retryAfterSeconds: number;
}

/** Whole seconds from `nowMs` until `resetAtMs`, at least 1. */
export function secondsUntil(resetAtMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
}

/** Where the window counters live: per instance, or shared by every instance. */
export type RateCounterMode = 'per-instance' | 'shared';

/**
 * Fixed-window request counters (SPEC 8, CONTRACT 8). A hit is counted and
 * checked in one atomic step; a bucket already at its limit is not counted
 * further, so once its window ends the client gets its full limit again.
 */
export abstract class RateCounter {
  /**
   * Counts one request of `caller` (a key digest or a client address) against
   * the limit `scope` names (a route's throttler, or the failed-check
   * allowance): each scope counts its callers apart.
   */
  abstract hit(scope: string, caller: string, limit: number, windowMs: number): Promise<RateVerdict>;

  /**
   * Where `caller` stands in `scope`'s current window, without counting a
   * request: not allowed once it is at `limit` (what the next `hit` would
   * answer). A caller without a window has its whole limit.
   */
  abstract peek(scope: string, caller: string, limit: number, windowMs: number): Promise<RateVerdict>;

  /** Whether counts are currently shared across instances. */
  abstract mode(): RateCounterMode;

  /** Whether shared counting was configured (REDIS_URL). */
  abstract isSharedConfigured(): boolean;
}
