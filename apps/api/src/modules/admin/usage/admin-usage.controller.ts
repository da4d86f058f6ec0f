import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ReportDailyUsage, ReportUsage, ShowOverview, UsageReport } from '@svc/application';
import { InvalidRequestError } from '@svc/domain';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { ALWAYS, ApiErrors } from '../../../openapi/api-errors.decorator';
import { DailyUsageView, OverviewView, dailyUsageViewOf, overviewViewOf } from '@svc/presentation';
import { DailyUsageQuery } from '../dto/console.query';
import { DailyUsageResponse, OverviewResponse } from '../dto/console.response';
import { UsageReportResponse } from '../dto/key.response';
import { SkipThrottle } from '@nestjs/throttler';

export { UsageReportResponse };

export function usageReportResponseOf(report: UsageReport): UsageReportResponse {
  return {
    key_id: report.keyId,
    license_id: report.licenseId,
    period: report.period,
    used: report.used,
    monthly_limit: report.monthlyLimit,
    by_key: report.byKey,
    by_event_type: report.byEventType,
    by_model: report.byModel,
    by_outcome: report.byOutcome,
  };
}

/** GET /admin/v1/usage?key_id=&period=YYYY-MM (CONTRACT 12); the console's daily usage and overview (CONTRACT 17). */
@ApiTags('admin')
@SkipThrottle()
@Controller()
export class AdminUsageController {
  constructor(
    private readonly reportUsage: ReportUsage,
    private readonly reportDaily: ReportDailyUsage,
    private readonly showOverview: ShowOverview,
  ) {}

  @Get('usage/daily')
  @AdminAuth('usage.read')
  @ApiOperation({
    summary: "A key's usage day by day",
    description:
      `Inferences per UTC day (by the time events were received), every day of the range present, and the range's events by type, ` +
      `model and outcome. At most ${ReportDailyUsage.MAX_DAYS} days; default: the current month up to today.`,
  })
  @ApiOkResponse({ type: DailyUsageResponse, description: 'The daily series (Cache-Control: no-store)' })
  @ApiErrors('INVALID_REQUEST', 'KEY_NOT_FOUND', ...ALWAYS)
  async daily(@Query() query: DailyUsageQuery): Promise<DailyUsageView> {
    return dailyUsageViewOf(await this.reportDaily.execute({ keyId: query.key_id, from: query.from, to: query.to }));
  }

  @Get('overview')
  @AdminAuth('usage.read')
  @ApiOperation({
    summary: "The operators' overview",
    description:
      'Keys by tier and status, events per day over the last 30 days, keys near their quota this period, the latest audit entries.',
  })
  @ApiOkResponse({ type: OverviewResponse, description: 'The overview (Cache-Control: no-store)' })
  @ApiErrors(...ALWAYS)
  async overview(): Promise<OverviewView> {
    return overviewViewOf(await this.showOverview.execute());
  }

  @Get('usage')
  @AdminAuth('usage.read')
  @ApiOperation({
    summary: "A key's usage in one period",
    description: "The quota used by the key's license (the keys a rotation chains) and its events by key, type, model and outcome.",
  })
  @ApiQuery({ name: 'key_id', required: true, type: String })
  @ApiQuery({ name: 'period', required: false, type: String, description: 'YYYY-MM; default: the current month (UTC)' })
  @ApiOkResponse({ type: UsageReportResponse, description: 'The usage report' })
  @ApiErrors('INVALID_REQUEST', 'KEY_NOT_FOUND', ...ALWAYS)
  async usage(@Query('key_id') keyId?: unknown, @Query('period') period?: unknown): Promise<UsageReportResponse> {
    if (typeof keyId !== 'string' || keyId === '') throw new InvalidRequestError('key_id is required');
    if (period !== undefined && typeof period !== 'string') throw new InvalidRequestError('period must be a month, YYYY-MM');
    return usageReportResponseOf(await this.reportUsage.execute({ keyId, period }));
  }
}
