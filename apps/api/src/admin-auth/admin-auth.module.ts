import { Module } from '@nestjs/common';
import { AuthenticateOperator } from '@svc/application';
import { ApiKeyAuthModule } from '../api-key-auth/api-key-auth.module';
import { AdminApiPresence } from './admin-api-presence';
import { AdminGuard } from './admin.guard';

/**
 * Admin authentication for the admin feature modules: a module whose routes
 * are the operators' imports this one and declares each with
 * `@AdminAuth(permission)`. Failures count on the brute-force limiter of
 * ApiKeyAuthModule (one allowance per client address for keys and admin tokens).
 */
@Module({
  imports: [ApiKeyAuthModule],
  providers: [AuthenticateOperator, AdminApiPresence, AdminGuard],
  exports: [AuthenticateOperator, AdminApiPresence, AdminGuard, ApiKeyAuthModule],
})
export class AdminAuthModule {}
