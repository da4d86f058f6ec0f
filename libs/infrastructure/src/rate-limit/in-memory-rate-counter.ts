import { RateCounter, type RateCounterMode, type RateVerdict, secondsUntil } from '@svc/application';
import { type Clock } from '@svc/domain';

interface Window {
  count: number;
  resetAtMs: number;
}

/**
 * Counters in this process's memory, on the injected clock.
 *
 * Windows are kept in two generations, rotated once per window length: a
 * window still in use moves from the previous generation to the current one
 * when it is hit, and a rotation drops the previous generation whole, by
 * then holding only windows that have ended. Forgetting ended windows costs
 * nothing per request: no walk over every bucket on the request path (with a
 * million keys validated within a minute, that walk stalled one request
 * for tens of milliseconds; docs/PERFORMANCE.md).
 *
 * Memory is bounded: when the current generation holds half of `maxWindows`,
 * it rotates early, so at most `maxWindows` windows are held, whatever the
 * number of callers in a minute (each well-formed key presented is a caller,
 * an unknown one too). A window dropped that way had not been hit since the
 * generation before; if its caller comes back within the window, it starts a
 * new window, like a caller the instance has not seen (nginx's limit_req
 * zones make the same trade when full). Below the bound nothing is dropped
 * early.
 */
export class InMemoryRateCounter extends RateCounter {
  private current = new Map<string, Window>();
  private previous = new Map<string, Window>();
  private rotateAtMs = 0;
  /** The longest window seen: a generation must outlive every window created in it. */
  private generationMs = 0;
  /** A generation rotates early once it holds this many windows. */
  private readonly generationWindows: number;

  /** `maxWindows`: RATE_LIMIT_MEMORY_WINDOWS. */
  constructor(
    private readonly clock: Clock,
    maxWindows: number,
  ) {
    super();
    if (!Number.isInteger(maxWindows) || maxWindows < 2) throw new RangeError(`maxWindows must be an integer >= 2, got ${maxWindows}`);
    this.generationWindows = Math.floor(maxWindows / 2);
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateVerdict> {
    return this.hitNow(bucket, limit, windowMs);
  }

  hitNow(bucket: string, limit: number, windowMs: number): RateVerdict {
    const now = this.clock.now().getTime();
    if (windowMs > this.generationMs) this.generationMs = windowMs;
    if (now >= this.rotateAtMs || this.current.size >= this.generationWindows) {
      this.previous = this.current;
      this.current = new Map();
      this.rotateAtMs = now + this.generationMs;
    }
    let window = this.current.get(bucket);
    if (window === undefined) {
      window = this.previous.get(bucket);
      if (window !== undefined) {
        this.previous.delete(bucket);
        this.current.set(bucket, window);
      }
    }
    if (window === undefined || window.resetAtMs <= now) {
      window = { count: 0, resetAtMs: now + windowMs };
      this.current.set(bucket, window);
    }
    const retryAfterSeconds = secondsUntil(window.resetAtMs, now);
    if (window.count >= limit) return { allowed: false, remaining: 0, resetAtMs: window.resetAtMs, retryAfterSeconds };
    window.count += 1;
    return { allowed: true, remaining: limit - window.count, resetAtMs: window.resetAtMs, retryAfterSeconds };
  }

  /** Buckets held in memory, ended windows not yet dropped included. */
  get bucketsHeld(): number {
    return this.current.size + this.previous.size;
  }

  mode(): RateCounterMode {
    return 'per-instance';
  }

  isSharedConfigured(): boolean {
    return false;
  }
}
