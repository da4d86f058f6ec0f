import { type ThrottlerStorage } from '@nestjs/throttler';
import { type RateCounter } from '@svc/application';

/** The library's record, plus when the window ends (for `X-RateLimit-Reset` in Unix seconds). */
export interface EndpointRateRecord {
  readonly totalHits: number;
  /** Seconds until the window ends. */
  readonly timeToExpire: number;
  readonly isBlocked: boolean;
  /** Seconds until the caller may try again (at least 1 while blocked). */
  readonly timeToBlockExpire: number;
  readonly resetAtMs: number;
}

/**
 * @nestjs/throttler's storage over the service's RateCounter: one atomic
 * count-and-check per hit (a Lua script in Redis when REDIS_URL is set, with
 * the per-instance fallback while Redis is away; else this process's memory).
 * Unlike the library's own storages, a caller at its limit is not counted
 * further while blocked, and stays blocked until its window ends: the
 * window is the block (`blockDuration` is not used).
 */
export class RateCounterThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counter: RateCounter) {}

  /** `key` is the caller (the guard's `generateKey`), counted within its throttler's name. */
  async increment(key: string, ttl: number, limit: number, _blockDuration: number, throttlerName: string): Promise<EndpointRateRecord> {
    const verdict = await this.counter.hit(throttlerName, key, limit, ttl);
    return {
      totalHits: limit - verdict.remaining,
      timeToExpire: verdict.retryAfterSeconds,
      isBlocked: !verdict.allowed,
      timeToBlockExpire: verdict.allowed ? 0 : verdict.retryAfterSeconds,
      resetAtMs: verdict.resetAtMs,
    };
  }
}
