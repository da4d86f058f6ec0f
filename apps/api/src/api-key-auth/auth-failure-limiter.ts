import { Injectable } from '@nestjs/common';
import { RateCounter } from '@svc/application';
import { AppConfig } from '@svc/config';
import { AdminUnauthorizedError, DomainError, type DomainErrorCode, KEY_CHECK_CODES } from '@svc/domain';
import { rateLimitExceeded } from '../http/rate-limit-exceeded';

/**
 * The failures the brute-force guard counts: every code a key check answers
 * for any purpose once a key was presented (CONTRACT 8; a missing key is no
 * guess), and a refused admin authentication (CONTRACT 21).
 */
const FAILED_CHECKS: ReadonlySet<DomainErrorCode> = new Set<DomainErrorCode>([
  ...Object.values(KEY_CHECK_CODES)
    .flat()
    .filter((code) => code !== 'MISSING_KEY'),
  new AdminUnauthorizedError().code,
]);

/** The window of failures per client address, on the rate limiter's counters (Redis when configured). */
const SCOPE = 'auth-failures';

/**
 * Brute-force guard: failed key checks and admin authentications from one
 * client address are limited together per window, on the rate limiter's
 * counters (shared through Redis when REDIS_URL is set). Within the allowance
 * a failure answers its own error; past it, 429 RATE_LIMIT_EXCEEDED until the
 * window ends. Successful checks are never counted, so a valid key from the
 * same address still passes (CONTRACT 8); an admin authentication, though, is
 * refused from a blocked address whatever token it brings (`refuseWhileBlocked`),
 * so guessing the admin token is not answered by a 200 for the right one.
 * (@nestjs/throttler counts every request it sees; it cannot count only
 * failures, so this is a piece of its own.)
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    private readonly counter: RateCounter,
    config: AppConfig,
  ) {
    this.limit = config.rateLimit.authFailuresPerMinute;
    this.windowMs = config.rateLimit.windowSeconds * 1000;
  }

  /** Runs a key check or an admin authentication; a counted failure past the allowance becomes 429. */
  async watch<T>(clientAddress: string, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (this.limit > 0 && error instanceof DomainError && FAILED_CHECKS.has(error.code)) {
        const verdict = await this.counter.hit(SCOPE, clientAddress, this.limit, this.windowMs);
        if (!verdict.allowed) throw rateLimitExceeded(verdict.retryAfterSeconds);
      }
      throw error;
    }
  }

  /**
   * 429 (with `Retry-After`, the rest of the window) while the address has
   * used up its failures: nothing is checked or counted. For the admin API,
   * whose every authentication from a blocked address is refused.
   */
  async refuseWhileBlocked(clientAddress: string): Promise<void> {
    if (this.limit === 0) return;
    const verdict = await this.counter.peek(SCOPE, clientAddress, this.limit, this.windowMs);
    if (!verdict.allowed) throw rateLimitExceeded(verdict.retryAfterSeconds);
  }
}
