import { FixedClock } from '@svc/domain';
import { InstallationTokenCache } from './installation-token-cache';

const MINUTE = 60_000;
const KEY = '98765432||repo|contents';

/** An entry as @octokit/auth-app 6 writes it: token|createdAt|expiresAt|repositorySelection|permissions|singleFileName. */
function entry(expiresAt: Date): string {
  return ['Z2hzX2VuY29kZWQ', '2026-11-21T12:00:00.000Z', expiresAt.toISOString(), 'selected', '', ''].join('|');
}

describe(InstallationTokenCache.name, () => {
  const start = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));

  it('answers the stored entry while it has at least the margin left by the Clock, then nothing', () => {
    const clock = new FixedClock(start);
    const cache = new InstallationTokenCache(clock, 10 * MINUTE);
    const value = entry(new Date(start.getTime() + 60 * MINUTE));
    expect(cache.get(KEY)).toBeUndefined();
    cache.set(KEY, value);
    clock.advance(50 * MINUTE); // exactly 10 minutes left
    expect(cache.get(KEY)).toBe(value);
    clock.advance(1000); // 9:59 left
    expect(cache.get(KEY)).toBeUndefined();
    clock.set(start); // the entry was dropped, not just hidden
    expect(cache.get(KEY)).toBeUndefined();
  });

  it('never answers a token stored with less than the margin, nor an entry whose expiry it cannot read', () => {
    const cache = new InstallationTokenCache(new FixedClock(start), 10 * MINUTE);
    cache.set(KEY, entry(new Date(start.getTime() + 5 * MINUTE)));
    expect(cache.get(KEY)).toBeUndefined();
    cache.set(KEY, 'token|2026-11-21T12:00:00.000Z|not a date|selected||');
    expect(cache.get(KEY)).toBeUndefined();
  });
});
