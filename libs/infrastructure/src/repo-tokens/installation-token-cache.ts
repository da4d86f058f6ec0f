import { type Clock } from '@svc/domain';

/**
 * The token cache given to @octokit/auth-app as its `cache` option (an object
 * with `get(key)` and `set(key, value)`), so the reuse rule of CONTRACT 6 is
 * ours and runs on the injected Clock instead of the library's 59-minute LRU.
 *
 * What the library stores (auth-app 6, dist-src/cache.js): one string per
 * installation, repositories and permissions, the fields joined with `|`:
 * `token|createdAt|expiresAt|repositorySelection|permissions|singleFileName`,
 * `expiresAt` being GitHub's `expires_at`. On `get` it splits the string on `|`
 * and hands the fields back as they are; a falsy answer makes it mint a token
 * and `set` the new one. So the token field must hold no `|`: the issuer only
 * ever gives the library an encoded token.
 *
 * `get` answers a stored token only while `expiresAt - clock.now() >= marginMs`;
 * below that (or for an expiry it cannot read) it drops the entry and answers
 * nothing. The library calls `set` only after a successful mint, so a failure is
 * never cached.
 */
export class InstallationTokenCache {
  private readonly entries = new Map<string, string>();

  constructor(
    private readonly clock: Clock,
    private readonly marginMs: number,
  ) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    const expiresAt = Date.parse(value.split('|')[2] ?? '');
    if (Number.isNaN(expiresAt) || expiresAt - this.clock.now().getTime() < this.marginMs) {
      this.entries.delete(key);
      return undefined;
    }
    return value;
  }

  set(key: string, value: string): void {
    this.entries.set(key, value);
  }
}
