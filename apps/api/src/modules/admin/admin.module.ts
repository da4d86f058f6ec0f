import { Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { AdminDevicesModule } from './devices/admin-devices.module';
import { AdminKeysModule } from './keys/admin-keys.module';
import { AdminModelsModule } from './models/admin-models.module';
import { AdminOperatorsModule } from './operators/admin-operators.module';
import { AdminUsageModule } from './usage/admin-usage.module';
import { AdminWebhooksModule } from './webhooks/admin-webhooks.module';

/** Where the operators' API is mounted; each of its modules declares its routes relative to it. */
export const ADMIN_PATH = 'admin/v1';

/**
 * The operators' API (CONTRACT 12, 21), each route behind the permission it
 * declares (`@AdminAuth`) and never rate-limited (failed authentications are:
 * the brute-force limiter): one module per job, mounted under ADMIN_PATH.
 * Always mounted; it answers only while ADMIN_TOKEN is set or an operator is
 * enabled (AdminApiPresence), and 404 as an unknown path otherwise.
 */
@Module({
  imports: [
    AdminKeysModule,
    AdminModelsModule,
    AdminUsageModule,
    AdminOperatorsModule,
    AdminWebhooksModule,
    AdminDevicesModule,
    RouterModule.register([
      {
        path: ADMIN_PATH,
        children: [AdminKeysModule, AdminModelsModule, AdminUsageModule, AdminOperatorsModule, AdminWebhooksModule, AdminDevicesModule],
      },
    ]),
  ],
})
export class AdminModule {}
