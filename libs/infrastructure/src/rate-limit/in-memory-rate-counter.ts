import { RateCounter, RateCounterMode, RateVerdict, secondsUntil } from '@svc/application';
import { Clock } from '@svc/domain';

interface Window {
  count: number;
  resetAtMs: number;
}

/** Counters in this process's memory, on the injected clock. Expired windows are swept as they are met. */
export class InMemoryRateCounter extends RateCounter {
  private readonly windows = new Map<string, Window>();
  private nextSweepMs = 0;

  constructor(private readonly clock: Clock) {
    super();
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateVerdict> {
    return this.hitNow(bucket, limit, windowMs);
  }

  hitNow(bucket: string, limit: number, windowMs: number): RateVerdict {
    const now = this.clock.now().getTime();
    this.sweep(now, windowMs);
    let window = this.windows.get(bucket);
    if (!window || window.resetAtMs <= now) {
      window = { count: 0, resetAtMs: now + windowMs };
      this.windows.set(bucket, window);
    }
    const retryAfterSeconds = secondsUntil(window.resetAtMs, now);
    if (window.count >= limit) return { allowed: false, remaining: 0, resetAtMs: window.resetAtMs, retryAfterSeconds };
    window.count += 1;
    return { allowed: true, remaining: limit - window.count, resetAtMs: window.resetAtMs, retryAfterSeconds };
  }

  mode(): RateCounterMode {
    return 'per-instance';
  }

  isSharedConfigured(): boolean {
    return false;
  }

  private sweep(now: number, windowMs: number): void {
    if (now < this.nextSweepMs) return;
    this.nextSweepMs = now + windowMs;
    for (const [bucket, window] of this.windows) if (window.resetAtMs <= now) this.windows.delete(bucket);
  }
}
