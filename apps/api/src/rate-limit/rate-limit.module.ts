import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule, ThrottlerOptions } from '@nestjs/throttler';
import { RateCounter } from '@svc/application';
import { AppConfig, RATE_LIMITED_ENDPOINTS } from '@svc/config';
import { ApiKeyAuthModule } from '../api-key-auth/api-key-auth.module';
import { EndpointThrottlerGuard } from './endpoint-throttler.guard';
import { RateCounterThrottlerStorage } from './rate-counter.throttler-storage';

/** One named throttler per SPEC 8 endpoint, its limit from configuration, per window. */
export function endpointThrottlersOf(config: AppConfig): ThrottlerOptions[] {
  const ttl = config.rateLimit.windowSeconds * 1000;
  return RATE_LIMITED_ENDPOINTS.map((name) => ({ name, limit: config.rateLimit.perEndpoint[name], ttl }));
}

/**
 * Rate limits (SPEC 8, CONTRACT 8) on @nestjs/throttler: the SPEC endpoints'
 * throttlers from AppConfig, counted through the service's RateCounter
 * (Redis when configured, per instance otherwise) by a global guard.
 * Routes name their throttler through `@ApiKeyAuth` (the service's own route metadata).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RateCounter],
      useFactory: (config: AppConfig, counter: RateCounter) => ({
        throttlers: endpointThrottlersOf(config),
        storage: new RateCounterThrottlerStorage(counter),
      }),
    }),
    ApiKeyAuthModule,
  ],
  providers: [{ provide: APP_GUARD, useClass: EndpointThrottlerGuard }],
})
export class RateLimitModule {}
