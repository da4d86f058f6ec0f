import { Global, Module } from '@nestjs/common';
import { ServiceMetrics } from './service-metrics';

/**
 * Metrics for the whole API: ServiceMetrics is global (the error filter and
 * a few controllers count through it). MetricsModule serves /metrics.
 */
@Global()
@Module({ providers: [ServiceMetrics], exports: [ServiceMetrics] })
export class ObservabilityModule {}
