import { Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { AdminKeysModule } from './keys/admin-keys.module';
import { AdminModelsModule } from './models/admin-models.module';
import { AdminUsageModule } from './usage/admin-usage.module';

/** Where the operators' API is mounted; each of its modules declares its routes relative to it. */
export const ADMIN_PATH = 'admin/v1';

/**
 * The operators' API (CONTRACT 12), behind the admin bearer token and never
 * rate-limited: one module per job, mounted under ADMIN_PATH. Imported only when
 * ADMIN_TOKEN is configured; otherwise the admin API does not exist (404).
 */
@Module({
  imports: [
    AdminKeysModule,
    AdminModelsModule,
    AdminUsageModule,
    RouterModule.register([{ path: ADMIN_PATH, children: [AdminKeysModule, AdminModelsModule, AdminUsageModule] }]),
  ],
})
export class AdminModule {}
