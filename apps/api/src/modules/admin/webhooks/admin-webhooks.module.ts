import { Module } from '@nestjs/common';
import {
  CreateWebhook,
  DeleteWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  ReplaceWebhookSecret,
  RetryWebhookDelivery,
  SendWebhookTest,
  ShowWebhook,
  UpdateWebhook,
} from '@svc/application';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { AdminWebhooksController } from './admin-webhooks.controller';

/** Webhook endpoints and their deliveries (CONTRACT 20), under the admin API. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminWebhooksController],
  providers: [
    CreateWebhook,
    ListWebhooks,
    ShowWebhook,
    UpdateWebhook,
    DeleteWebhook,
    ReplaceWebhookSecret,
    SendWebhookTest,
    ListWebhookDeliveries,
    RetryWebhookDelivery,
  ],
})
export class AdminWebhooksModule {}
