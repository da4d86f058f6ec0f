import { Module } from '@nestjs/common';
import { ManageWebhooks } from '@svc/application';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { AdminWebhooksController } from './admin-webhooks.controller';

/** Webhook endpoints and their deliveries (CONTRACT 20), under the admin API. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminWebhooksController],
  providers: [ManageWebhooks],
})
export class AdminWebhooksModule {}
