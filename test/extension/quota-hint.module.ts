import { Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { ShowApiKey } from '@svc/application';
import { AdminAuthModule } from '../../apps/api/src/admin-auth/admin-auth.module';
import { ApiKeyAuthModule } from '../../apps/api/src/api-key-auth/api-key-auth.module';
import { ADMIN_PATH } from '../../apps/api/src/modules/admin/admin.module';
import { QuotaHintAdminController } from './quota-hint-admin.controller';
import { QuotaHintController } from './quota-hint.controller';
import { ReadQuotaHint } from './quota-hint.use-case';

/** The example's admin route: AdminAuthModule (the guard and its operators) and the use case it calls. */
@Module({ imports: [AdminAuthModule], controllers: [QuotaHintAdminController], providers: [ShowApiKey] })
export class QuotaHintAdminModule {}

/**
 * A feature module built exactly as docs/EXTENDING.md says (test/e2e/extending.e2e-spec.ts
 * mounts it): it imports ApiKeyAuthModule and provides its own use case; its admin route is a
 * module of its own, mounted under the admin path.
 */
@Module({
  imports: [ApiKeyAuthModule, QuotaHintAdminModule, RouterModule.register([{ path: ADMIN_PATH, module: QuotaHintAdminModule }])],
  controllers: [QuotaHintController],
  providers: [ReadQuotaHint],
})
export class QuotaHintModule {}
