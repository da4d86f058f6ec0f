import { Module } from '@nestjs/common';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { ReportDailyUsage, ReportUsage, ShowOverview } from '@svc/application';
import { AdminUsageController } from './admin-usage.controller';

/** The operators' usage reads (CONTRACT 12, 17): a license's usage, its days, and the overview. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminUsageController],
  providers: [ReportUsage, ReportDailyUsage, ShowOverview],
})
export class AdminUsageModule {}
