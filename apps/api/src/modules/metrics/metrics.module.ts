import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';

/**
 * /metrics (the series ServiceMetrics keeps): mounted on the HTTP port when
 * metrics are enabled and METRICS_PORT is unset, else served on that port by
 * MetricsServer; neither when metrics are disabled.
 */
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { enabled, port } = config.metrics;
    return {
      module: MetricsModule,
      controllers: enabled && port === null ? [MetricsController] : [],
      providers: enabled && port !== null ? [MetricsServer] : [],
    };
  }
}
