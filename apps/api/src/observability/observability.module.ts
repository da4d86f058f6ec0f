import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';
import { ServiceMetrics } from './service-metrics';

/**
 * Metrics for the whole API: ServiceMetrics is global (the error filter and
 * a few controllers count through it). /metrics is mounted on the HTTP port
 * when enabled and METRICS_PORT is unset, else served by MetricsServer.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { enabled, port } = config.metrics;
    return {
      module: ObservabilityModule,
      controllers: enabled && port === null ? [MetricsController] : [],
      providers: [ServiceMetrics, ...(enabled && port !== null ? [MetricsServer] : [])],
      exports: [ServiceMetrics],
    };
  }
}
