import { Module } from '@nestjs/common';
import {
  CreateModel,
  DeleteModel,
  IssueApiKey,
  KeyRevocation,
  ListAllModels,
  ListAudit,
  ListKeys,
  ReplaceModel,
  ReportDailyUsage,
  ReportUsage,
  RevokeKeyById,
  ShowApiKey,
  ShowModel,
  ShowOverview,
  UpdateApiKey,
  UploadModelFile,
} from '@svc/application';
import { AdminTokenGuard } from '../../http/admin-token.guard';
import { AdminKeysController } from './admin-keys.controller';
import { AdminModelsController } from './admin-models.controller';
import { AdminUsageController } from './admin-usage.controller';

/**
 * The operators' API (CONTRACT 12), behind the admin bearer token and never
 * rate-limited. Mounted only when ADMIN_TOKEN is configured; otherwise the
 * admin API does not exist (404).
 */
@Module({
  controllers: [AdminKeysController, AdminUsageController, AdminModelsController],
  providers: [
    AdminTokenGuard,
    IssueApiKey,
    ShowApiKey,
    UpdateApiKey,
    KeyRevocation,
    RevokeKeyById,
    ListAudit,
    ListKeys,
    ReportUsage,
    ReportDailyUsage,
    ShowOverview,
    CreateModel,
    UploadModelFile,
    ReplaceModel,
    DeleteModel,
    ListAllModels,
    ShowModel,
  ],
})
export class AdminModule {}
