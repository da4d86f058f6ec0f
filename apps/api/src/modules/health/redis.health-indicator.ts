import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { RateCounter } from '@svc/application';

/** The key the rate-limit store is reported under in readiness. */
export const REDIS_CHECK = 'redis';

/** What readiness says while Redis is configured but not answering. */
export const REDIS_UNREACHABLE = 'Redis unreachable: rate limits fall back to per-instance counters';

/**
 * Terminus health indicator for the rate-limit store (REDIS_URL).
 *
 * Redis down must not fail readiness: the service keeps answering, its
 * limits counted per instance instead of shared. In terminus's shape any
 * `down` indicator makes the whole check `error` (503), so this indicator is
 * always `up` (the rate-limit store works) and says where counts live:
 * - Redis answers: `{ status: 'up', connection: 'up', rate_limits: 'shared' }`
 * - Redis down:    `{ status: 'up', connection: 'down', rate_limits: 'per-instance', message }`
 * (`status` is reserved by terminus for its verdict, hence `connection`).
 * Where Redis is not configured the controller does not run this indicator.
 */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly rateCounter: RateCounter,
    private readonly healthIndicatorService: HealthIndicatorService,
  ) {}

  /** Whether REDIS_URL is set (fixed for the life of the process). */
  isConfigured(): boolean {
    return this.rateCounter.isSharedConfigured();
  }

  isHealthy(): HealthIndicatorResult<typeof REDIS_CHECK> {
    const indicator = this.healthIndicatorService.check(REDIS_CHECK);
    return this.rateCounter.mode() === 'shared'
      ? indicator.up({ connection: 'up', rate_limits: 'shared' })
      : indicator.up({ connection: 'down', rate_limits: 'per-instance', message: REDIS_UNREACHABLE });
  }
}
