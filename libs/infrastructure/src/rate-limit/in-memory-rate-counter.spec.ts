import { FixedClock } from '@svc/domain';
import { InMemoryRateCounter } from './in-memory-rate-counter';

const WINDOW_MS = 60_000;

function counterAt(start = Date.UTC(2026, 10, 21, 12, 0, 0), maxWindows = 100_000) {
  const clock = new FixedClock(new Date(start));
  return { clock, counter: new InMemoryRateCounter(clock, maxWindows), start };
}

describe(InMemoryRateCounter.name, () => {
  it('allows up to the limit in one window, then refuses until the window ends', () => {
    const { clock, counter, start } = counterAt();
    expect([1, 2, 3].map(() => counter.hitNow('s', 'b', 3, WINDOW_MS).remaining)).toEqual([2, 1, 0]);
    clock.advance(WINDOW_MS - 1);
    expect(counter.hitNow('s', 'b', 3, WINDOW_MS)).toEqual({
      allowed: false,
      remaining: 0,
      resetAtMs: start + WINDOW_MS,
      retryAfterSeconds: 1,
    });
    clock.advance(1);
    expect(counter.hitNow('s', 'b', 3, WINDOW_MS)).toEqual({
      allowed: true,
      remaining: 2,
      resetAtMs: start + 2 * WINDOW_MS,
      retryAfterSeconds: 60,
    });
  });

  it('peeks at a window without counting: whole limit when none, refused at the limit, whole limit once it ended', () => {
    const { clock, counter, start } = counterAt();
    expect(counter.peekNow('s', 'b', 2, WINDOW_MS)).toEqual({
      allowed: true,
      remaining: 2,
      resetAtMs: start + WINDOW_MS,
      retryAfterSeconds: 60,
    });
    expect(counter.windowsHeld).toBe(0);
    counter.hitNow('s', 'b', 2, WINDOW_MS);
    expect(counter.peekNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 1 });
    expect(counter.peekNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 1 });
    counter.hitNow('s', 'b', 2, WINDOW_MS);
    clock.advance(15_000);
    expect(counter.peekNow('s', 'b', 2, WINDOW_MS)).toEqual({
      allowed: false,
      remaining: 0,
      resetAtMs: start + WINDOW_MS,
      retryAfterSeconds: 45,
    });
    expect(counter.peekNow('other-scope', 'b', 2, WINDOW_MS).allowed).toBe(true);
    clock.advance(45_000);
    expect(counter.peekNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 2 });
    expect(counter.hitNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('peeks at a window kept in the previous generation', () => {
    const { clock, counter, start } = counterAt();
    counter.hitNow('s', 'rotates-the-generations', 10, WINDOW_MS);
    clock.advance(WINDOW_MS - 10);
    counter.hitNow('s', 'b', 1, WINDOW_MS);
    clock.advance(20);
    counter.hitNow('s', 'another', 1, WINDOW_MS); // rotates: b is in the previous generation now
    expect(counter.peekNow('s', 'b', 1, WINDOW_MS)).toMatchObject({ allowed: false, resetAtMs: start + 2 * WINDOW_MS - 10 });
  });

  it('counts a caller apart in each scope, and the callers of a scope apart', () => {
    const { counter } = counterAt();
    expect(counter.hitNow('validate', 'c', 2, WINDOW_MS).remaining).toBe(1);
    expect(counter.hitNow('validate', 'c', 2, WINDOW_MS).remaining).toBe(0);
    expect(counter.hitNow('validate', 'c', 2, WINDOW_MS).allowed).toBe(false);
    expect(counter.hitNow('analytics', 'c', 2, WINDOW_MS).remaining).toBe(1);
    expect(counter.hitNow('validate', 'd', 2, WINDOW_MS).remaining).toBe(1);
    expect(counter.windowsHeld).toBe(3);
  });

  it('keeps a window that spans a generation rotation: it is counted on, not restarted', () => {
    const { clock, counter, start } = counterAt();
    counter.hitNow('s', 'rotates-the-generations', 10, WINDOW_MS); // the first hit sets the generation clock
    clock.advance(WINDOW_MS - 10);
    counter.hitNow('s', 'b', 2, WINDOW_MS); // window of b: [start + 59.99 s, start + 119.99 s)
    clock.advance(20); // past the rotation: b now lives in the previous generation
    expect(counter.hitNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 0, resetAtMs: start + 2 * WINDOW_MS - 10 });
    clock.advance(WINDOW_MS - 30); // past the next rotation; b was moved forward when hit, and its window has not ended
    expect(counter.hitNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: false, resetAtMs: start + 2 * WINDOW_MS - 10 });
    clock.advance(20); // the window ends
    expect(counter.hitNow('s', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('forgets ended windows within two window lengths, without walking the buckets', () => {
    const { clock, counter } = counterAt();
    for (let i = 0; i < 1000; i++) counter.hitNow('s', `k:${i}`, 5, WINDOW_MS);
    expect(counter.windowsHeld).toBe(1000);
    clock.advance(WINDOW_MS);
    counter.hitNow('s', 'other', 5, WINDOW_MS);
    expect(counter.windowsHeld).toBe(1001); // ended, but only dropped with their generation
    clock.advance(WINDOW_MS);
    counter.hitNow('s', 'other', 5, WINDOW_MS);
    expect(counter.windowsHeld).toBe(1);
  });

  it('a window longer than the generations seen so far lengthens them, so it is never dropped early', () => {
    const { clock, counter } = counterAt();
    counter.hitNow('s', 'short', 5, 1_000);
    counter.hitNow('s', 'long', 2, 10_000);
    counter.hitNow('s', 'long', 2, 10_000);
    for (let t = 0; t < 9; t++) {
      clock.advance(1_000);
      expect(counter.hitNow('s', 'long', 2, 10_000).allowed).toBe(false);
    }
    clock.advance(1_000);
    expect(counter.hitNow('s', 'long', 2, 10_000).allowed).toBe(true);
  });

  describe('bounded memory (RATE_LIMIT_MEMORY_WINDOWS)', () => {
    it('never holds more than the bound, however many callers come within one window', () => {
      const { counter } = counterAt(undefined, 1_000);
      let most = 0;
      for (let i = 0; i < 20_000; i++) {
        expect(counter.hitNow('s', `k:${i}`, 5, WINDOW_MS).remaining).toBe(4);
        most = Math.max(most, counter.windowsHeld);
      }
      expect(most).toBe(1_000);
    });

    it('bounds the windows of every scope together', () => {
      const { counter } = counterAt(undefined, 1_000);
      let most = 0;
      for (let i = 0; i < 6_000; i++) {
        expect(counter.hitNow(['validate', 'analytics', 'models'][i % 3], `k:${i}`, 5, WINDOW_MS).remaining).toBe(4);
        most = Math.max(most, counter.windowsHeld);
      }
      expect(most).toBe(1_000);
    });

    it('keeps counting a caller hit at least once per half of the bound, while others come and go', () => {
      const { counter } = counterAt(undefined, 1_000);
      const remaining: number[] = [];
      for (let i = 0; i < 10_000; i++) {
        counter.hitNow('s', `other:${i}`, 5, WINDOW_MS);
        if (i % 400 === 0) remaining.push(counter.hitNow('s', 'steady', 1_000, WINDOW_MS).remaining);
      }
      expect(remaining).toEqual(Array.from({ length: 25 }, (_, n) => 999 - n));
    });

    it('forgets first the window not hit for longest: that caller starts a new window', () => {
      const { clock, counter, start } = counterAt(undefined, 4);
      counter.hitNow('s', 'idle', 2, WINDOW_MS);
      counter.hitNow('s', 'idle', 2, WINDOW_MS);
      expect(counter.hitNow('s', 'idle', 2, WINDOW_MS).allowed).toBe(false);
      clock.advance(1_000);
      for (const caller of ['a', 'b', 'c', 'd']) counter.hitNow('s', caller, 2, WINDOW_MS); // two early rotations
      expect(counter.hitNow('s', 'idle', 2, WINDOW_MS)).toEqual({
        allowed: true,
        remaining: 1,
        resetAtMs: start + 1_000 + WINDOW_MS,
        retryAfterSeconds: 60,
      });
    });

    it('below the bound nothing is forgotten early', () => {
      const { clock, counter } = counterAt(undefined, 2_000);
      for (let i = 0; i < 999; i++) counter.hitNow('s', `k:${i}`, 1, WINDOW_MS);
      clock.advance(WINDOW_MS - 1);
      for (let i = 0; i < 999; i++) expect(counter.hitNow('s', `k:${i}`, 1, WINDOW_MS).allowed).toBe(false);
    });

    it('refuses a bound below two', () => {
      expect(() => new InMemoryRateCounter(new FixedClock(new Date()), 1)).toThrow(RangeError);
    });
  });
});
