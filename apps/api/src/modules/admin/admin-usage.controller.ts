import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ReportUsage, UsageReport } from '@svc/application';
import { InvalidRequestError } from '@svc/domain';
import { AdminTokenGuard } from '../../http/admin-token.guard';

export interface UsageReportResponse {
  readonly key_id: string;
  readonly period: string;
  readonly used: number;
  readonly monthly_limit: number | null;
  readonly by_event_type: Readonly<Record<string, number>>;
  readonly by_model: Readonly<Record<string, number>>;
  readonly by_outcome: Readonly<Record<string, number>>;
}

export function usageReportResponseOf(report: UsageReport): UsageReportResponse {
  return {
    key_id: report.keyId,
    period: report.period,
    used: report.used,
    monthly_limit: report.monthlyLimit,
    by_event_type: report.byEventType,
    by_model: report.byModel,
    by_outcome: report.byOutcome,
  };
}

/** GET /admin/v1/usage?key_id=&period=YYYY-MM (CONTRACT 12). */
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminUsageController {
  constructor(private readonly reportUsage: ReportUsage) {}

  @Get('usage')
  async usage(@Query('key_id') keyId?: unknown, @Query('period') period?: unknown): Promise<UsageReportResponse> {
    if (typeof keyId !== 'string' || keyId === '') throw new InvalidRequestError('key_id is required');
    if (period !== undefined && typeof period !== 'string') throw new InvalidRequestError('period must be a month, YYYY-MM');
    return usageReportResponseOf(await this.reportUsage.execute({ keyId, period }));
  }
}
