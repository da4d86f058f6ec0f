import { Module } from '@nestjs/common';
import { AuthenticateApiKey, DeviceGate } from '@svc/application';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { ApiKeyGuard } from './api-key.guard';
import { PresentedKeys } from './presented-keys';

/**
 * API-key authentication for feature modules: a module whose routes take a
 * key imports this one and declares them with `@ApiKeyAuth(...)`. The
 * brute-force limiter lives here because it watches the key checks.
 */
@Module({
  providers: [AuthenticateApiKey, PresentedKeys, AuthFailureLimiter, DeviceGate, ApiKeyGuard],
  exports: [AuthenticateApiKey, PresentedKeys, AuthFailureLimiter, DeviceGate, ApiKeyGuard],
})
export class ApiKeyAuthModule {}
