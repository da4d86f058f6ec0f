import { Module } from '@nestjs/common';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { ListNearQuota, ReportDailyUsage, ReportUsage, ShowOverview } from '@svc/application';
import { AdminUsageController } from './admin-usage.controller';

/** The operators' usage reads (CONTRACT 12, 17): a license's usage, its days, keys near their quota, and the overview. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminUsageController],
  providers: [ReportUsage, ReportDailyUsage, ShowOverview, ListNearQuota],
})
export class AdminUsageModule {}
