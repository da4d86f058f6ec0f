import { Injectable } from '@nestjs/common';
import { RateCounter } from '@svc/application';
import { AppConfig } from '@svc/config';
import { DomainError } from '@svc/domain';
import { rateLimitExceeded } from './rate-limit.guard';

/** The failed key checks the brute-force guard counts (CONTRACT 8). */
const FAILED_KEY_CHECKS = new Set(['INVALID_FORMAT', 'INVALID_KEY', 'KEY_EXPIRED', 'KEY_NOT_FOUND']);

/**
 * Brute-force guard: failed key checks from one client address are limited
 * per window. Within the allowance a failure answers its own error; past it,
 * 429 RATE_LIMIT_EXCEEDED until the window ends. Successful checks are never
 * counted, so a valid key from the same address still passes.
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

  /** Runs a key check; a counted failure past the allowance becomes 429. */
  async watch<T>(clientAddress: string, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (this.limit > 0 && error instanceof DomainError && FAILED_KEY_CHECKS.has(error.code)) {
        const verdict = await this.counter.hit(`auth-failures:${clientAddress}`, this.limit, this.windowMs);
        if (!verdict.allowed) throw rateLimitExceeded(verdict);
      }
      throw error;
    }
  }
}
