import { Module } from '@nestjs/common';
import { AdminTokenGuard } from '../../http/admin-token.guard';
import { AdminKeysController } from './admin-keys.controller';
import { AdminModelsController } from './admin-models.controller';
import { AdminUsageController } from './admin-usage.controller';

/** Mounted only when ADMIN_TOKEN is configured; otherwise the admin API does not exist (404). */
@Module({ controllers: [AdminKeysController, AdminUsageController, AdminModelsController], providers: [AdminTokenGuard] })
export class AdminModule {}
