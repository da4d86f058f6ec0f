import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '@svc/config';
import { AdminUnauthorizedError, DomainError, type DomainErrorCode, KEY_CHECK_CODES } from '@svc/domain';
import { rateLimitExceeded } from './rate-limit-exceeded';

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

/**
 * Brute-force guard: failed key checks and admin authentications from one
 * client address are limited together
 * per window, on the rate limiter's storage. Within the allowance a failure
 * answers its own error; past it, 429 RATE_LIMIT_EXCEEDED until the window
 * ends. Successful checks are never counted, so a valid key (or admin token)
 * from the same address still passes. (@nestjs/throttler counts every request it sees; it
 * cannot count only failures, so this is a piece of its own.)
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
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
        const record = await this.storage.increment(clientAddress, this.windowMs, this.limit, this.windowMs, 'auth-failures');
        if (record.isBlocked) throw rateLimitExceeded(record.timeToBlockExpire);
      }
      throw error;
    }
  }
}
