import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AppConfig, AppConfigModule } from '@svc/config';
import { InfrastructureModule, InfrastructureOverrides } from '@svc/infrastructure';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { requestValidationPipe } from './http/request-validation';
import { RouteTable } from './http/route-table';
import { AdminModule } from './modules/admin/admin.module';
import { AuthModule } from './modules/auth/auth.module';
import { AnalyticsModule } from './modules/analytics/analytics.module';
import { DevicesModule } from './modules/devices/devices.module';
import { HealthModule } from './modules/health/health.module';
import { InstallerModule } from './modules/installer/installer.module';
import { LicenseModule } from './modules/license/license.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { ModelsModule } from './modules/models/models.module';
import { WebhookDispatcherModule } from './modules/webhooks/webhook-dispatcher.module';
import { ObservabilityModule } from './observability/observability.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';

/** Feature modules added to the service's own (docs/EXTENDING.md). */
export type ApiFeatures = NonNullable<DynamicModule['imports']>;

/**
 * The composition root of the HTTP service: configuration and the adapters
 * (bound once, global), the cross-cutting pieces (rate limits, metrics, the
 * error envelope and the validation pipe), then the feature modules, each
 * providing the use cases it uses.
 */
@Module({})
export class ApiModule {
  static forRoot(
    config: AppConfig,
    routes: RouteTable,
    overrides: InfrastructureOverrides = {},
    features: ApiFeatures = [],
  ): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        AppConfigModule.forRoot(config),
        InfrastructureModule.forRoot(config, overrides),
        ObservabilityModule,
        MetricsModule.forRoot(config),
        RateLimitModule,
        HealthModule,
        AuthModule,
        LicenseModule,
        AnalyticsModule,
        DevicesModule,
        InstallerModule,
        ModelsModule.forRoot(config),
        AdminModule,
        WebhookDispatcherModule,
        ...features,
      ],
      providers: [
        { provide: RouteTable, useValue: routes },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        { provide: APP_PIPE, useValue: requestValidationPipe() },
      ],
    };
  }
}
