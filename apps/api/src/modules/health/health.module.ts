import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health-indicator';
import { HealthController } from './health.controller';
import { ModelStoreHealthIndicator } from './model-store.health-indicator';
import { RedisHealthIndicator } from './redis.health-indicator';

/**
 * Health on @nestjs/terminus (CONTRACT 10). Terminus's own logger is off: a
 * failed check would be logged on every probe (Kubernetes polls readiness
 * every few seconds) outside the service's JSON log lines; the request log
 * already records each 503. Its graceful-shutdown delay stays off too
 * (`gracefulShutdownTimeoutMs` 0): main.ts owns SIGTERM and its timeout.
 */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json', logger: false })],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, ModelStoreHealthIndicator, RedisHealthIndicator],
})
export class HealthModule {}
