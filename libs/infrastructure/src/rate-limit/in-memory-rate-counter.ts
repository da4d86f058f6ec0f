import { RateCounter, type RateCounterMode, type RateVerdict, secondsUntil } from '@svc/application';
import { type Clock } from '@svc/domain';

interface Window {
  count: number;
  resetAtMs: number;
}

/** One generation's windows: per scope, by caller. */
type Generation = Map<string, Map<string, Window>>;

/**
 * Counters in this process's memory, on the injected clock.
 *
 * Windows are kept in two generations, rotated once per window length: a
 * window still in use moves from the previous generation to the current one
 * when it is hit, and a rotation drops the previous generation whole, by
 * then holding only windows that have ended. Forgetting ended windows costs
 * nothing per request: no walk over every bucket on the request path (with a
 * million keys validated within a minute, that walk stalled the request
 * that ran it).
 *
 * A generation holds one Map per scope, keyed by the caller string as given
 * (a key digest or an address): no key is built per request, and a window
 * costs its caller string, its slot and its two numbers (a third less than
 * with one `scope:caller` string key per window).
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
  private current: Generation = new Map();
  private previous: Generation = new Map();
  private currentWindows = 0;
  private previousWindows = 0;
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

  async hit(scope: string, caller: string, limit: number, windowMs: number): Promise<RateVerdict> {
    return this.hitNow(scope, caller, limit, windowMs);
  }

  hitNow(scope: string, caller: string, limit: number, windowMs: number): RateVerdict {
    const now = this.clock.now().getTime();
    if (windowMs > this.generationMs) this.generationMs = windowMs;
    if (now >= this.rotateAtMs || this.currentWindows >= this.generationWindows) {
      this.previous = this.current;
      this.previousWindows = this.currentWindows;
      this.current = new Map();
      this.currentWindows = 0;
      this.rotateAtMs = now + this.generationMs;
    }
    let callers = this.current.get(scope);
    if (callers === undefined) {
      callers = new Map();
      this.current.set(scope, callers);
    }
    let window = callers.get(caller);
    if (window === undefined) {
      const earlier = this.previous.get(scope);
      window = earlier?.get(caller);
      if (window !== undefined) {
        earlier!.delete(caller);
        this.previousWindows -= 1;
      } else {
        window = { count: 0, resetAtMs: now + windowMs };
      }
      callers.set(caller, window);
      this.currentWindows += 1;
    }
    if (window.resetAtMs <= now) {
      window.count = 0;
      window.resetAtMs = now + windowMs;
    }
    const retryAfterSeconds = secondsUntil(window.resetAtMs, now);
    if (window.count >= limit) return { allowed: false, remaining: 0, resetAtMs: window.resetAtMs, retryAfterSeconds };
    window.count += 1;
    return { allowed: true, remaining: limit - window.count, resetAtMs: window.resetAtMs, retryAfterSeconds };
  }

  async peek(scope: string, caller: string, limit: number, windowMs: number): Promise<RateVerdict> {
    return this.peekNow(scope, caller, limit, windowMs);
  }

  /** The caller's window as it stands, read where it is (this generation or the previous one), moved and counted nowhere. */
  peekNow(scope: string, caller: string, limit: number, windowMs: number): RateVerdict {
    const now = this.clock.now().getTime();
    const window = this.current.get(scope)?.get(caller) ?? this.previous.get(scope)?.get(caller);
    if (window === undefined || window.resetAtMs <= now) {
      return { allowed: limit > 0, remaining: limit, resetAtMs: now + windowMs, retryAfterSeconds: secondsUntil(now + windowMs, now) };
    }
    const retryAfterSeconds = secondsUntil(window.resetAtMs, now);
    return { allowed: window.count < limit, remaining: Math.max(0, limit - window.count), resetAtMs: window.resetAtMs, retryAfterSeconds };
  }

  /** Windows held in memory, ended windows not yet dropped included. */
  get windowsHeld(): number {
    return this.currentWindows + this.previousWindows;
  }

  mode(): RateCounterMode {
    return 'per-instance';
  }

  isSharedConfigured(): boolean {
    return false;
  }
}
