import { DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { USE_CASES } from '@svc/application';
import { AppConfig, AppConfigModule } from '@svc/config';
import { InvalidRequestError } from '@svc/domain';
import { InfrastructureModule, InfrastructureOverrides } from '@svc/infrastructure';
import { ValidationError } from 'class-validator';
import { AuthFailureLimiter } from './http/auth-failure-limiter';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { RateLimitGuard } from './http/rate-limit.guard';
import { RouteTable } from './http/route-table';
import { AdminModule } from './modules/admin/admin.module';
import { AuthModule } from './modules/auth/auth.module';
import { AnalyticsModule } from './modules/analytics/analytics.module';
import { HealthModule } from './modules/health/health.module';
import { InstallerModule } from './modules/installer/installer.module';
import { ModelsModule } from './modules/models/models.module';
import { ObservabilityModule } from './observability/observability.module';

/** Use cases, provided once for every feature module of the API. */
@Module({ providers: [...USE_CASES], exports: [...USE_CASES] })
export class UseCasesModule {}

/** HTTP-edge services every feature module's guards use. */
@Module({ providers: [AuthFailureLimiter], exports: [AuthFailureLimiter] })
export class HttpEdgeModule {}

/** The composition root of the HTTP service. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, routes: RouteTable, overrides: InfrastructureOverrides = {}): DynamicModule {
    const useCases = { module: UseCasesModule, global: true };
    return {
      module: ApiModule,
      imports: [
        AppConfigModule.forRoot(config),
        InfrastructureModule.forRoot(config, overrides),
        useCases,
        { module: HttpEdgeModule, global: true },
        ObservabilityModule.forRoot(config),
        HealthModule,
        AuthModule,
        AnalyticsModule,
        InstallerModule,
        ModelsModule.forRoot(config),
        ...(config.adminToken ? [AdminModule] : []),
      ],
      providers: [
        { provide: RouteTable, useValue: routes },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            transform: true,
            forbidUnknownValues: false,
            exceptionFactory: (errors) => new InvalidRequestError(firstMessage(errors)),
          }),
        },
      ],
    };
  }
}

function firstMessage(errors: ValidationError[]): string {
  for (const error of errors) {
    const message = Object.values(error.constraints ?? {})[0];
    if (message) return message;
    const nested = firstMessage(error.children ?? []);
    if (nested !== 'invalid request body') return nested;
  }
  return 'invalid request body';
}
