import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ListNearQuota, ReportDailyUsage, ReportUsage, ShowOverview } from '@svc/application';
import { InvalidRequestError, isPlainText } from '@svc/domain';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { ALWAYS, ApiErrors } from '../../../openapi/api-errors.decorator';
import {
  DailyUsageResponse,
  NearQuotaPageResponse,
  OverviewResponse,
  UsageReportResponse,
  dailyUsageViewOf,
  decodeNearQuotaCursor,
  nearQuotaPageViewOf,
  overviewViewOf,
  usageReportViewOf,
} from '@svc/presentation';
import { DailyUsageQuery, NearQuotaQuery, pageLimitOf } from '../dto/console.query';
import { SkipThrottle } from '@nestjs/throttler';

/** GET /admin/v1/usage?key_id=&period=YYYY-MM (CONTRACT 12); the console's daily usage and overview (CONTRACT 17). */
@ApiTags('admin')
@SkipThrottle()
@Controller()
export class AdminUsageController {
  constructor(
    private readonly reportUsage: ReportUsage,
    private readonly reportDaily: ReportDailyUsage,
    private readonly showOverview: ShowOverview,
    private readonly listNearQuota: ListNearQuota,
  ) {}

  @Get('usage/daily')
  @AdminAuth('usage.read')
  @ApiOperation({
    summary: "A license's usage day by day, split by key",
    description:
      'The license (CONTRACT 16) of key_id, or license_id: its keys (the chain of rotations, oldest first, each with its status), ' +
      'its inferences per UTC day (by the time events were received; every key of the license, each day also by key; every day ' +
      "of the range present), and the range's events by key, type, model and outcome. Over a month the days add up to the " +
      `quota's used. At most ${ReportDailyUsage.MAX_DAYS} days; default: the current month up to today.`,
  })
  @ApiOkResponse({ type: DailyUsageResponse, description: 'The daily series (Cache-Control: no-store)' })
  @ApiErrors('INVALID_REQUEST', 'KEY_NOT_FOUND', ...ALWAYS)
  async daily(@Query() query: DailyUsageQuery): Promise<DailyUsageResponse> {
    return dailyUsageViewOf(
      await this.reportDaily.execute({ keyId: query.key_id, licenseId: query.license_id, from: query.from, to: query.to }),
    );
  }

  @Get('usage/near-quota')
  @AdminAuth('usage.read')
  @ApiOperation({
    summary: 'Every key at or near its quota',
    description:
      `Keys that used at least ${ListNearQuota.NEAR_QUOTA_PERCENT}% of their limit in force this period (a license once, on its ` +
      'current key; unlimited keys never), highest share first, ties by key_id, a page at a time: pass next_cursor as cursor.',
  })
  @ApiOkResponse({ type: NearQuotaPageResponse, description: 'A page of keys (Cache-Control: no-store)' })
  @ApiErrors('INVALID_REQUEST', ...ALWAYS)
  async nearQuota(@Query() query: NearQuotaQuery): Promise<NearQuotaPageResponse> {
    const after = query.cursor === undefined ? undefined : decodeNearQuotaCursor(query.cursor);
    if (after === null) throw new InvalidRequestError('cursor must be the next_cursor of an earlier page');
    return nearQuotaPageViewOf(await this.listNearQuota.execute({ after, limit: pageLimitOf(query.limit) }));
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
  async overview(): Promise<OverviewResponse> {
    return overviewViewOf(await this.showOverview.execute());
  }

  @Get('usage')
  @AdminAuth('usage.read')
  @ApiOperation({
    summary: "A license's usage in one period",
    description:
      'The quota used by the license of key_id, or license_id (the keys a rotation chains), and its events by key, type, model and ' +
      'outcome. Asked by license_id, key_id is its current key.',
  })
  @ApiQuery({ name: 'key_id', required: false, type: String, description: "One of the license's keys (give this or license_id)" })
  @ApiQuery({ name: 'license_id', required: false, type: String, description: 'The license (give this or key_id)' })
  @ApiQuery({ name: 'period', required: false, type: String, description: 'YYYY-MM; default: the current month (UTC)' })
  @ApiOkResponse({ type: UsageReportResponse, description: 'The usage report' })
  @ApiErrors('INVALID_REQUEST', 'KEY_NOT_FOUND', ...ALWAYS)
  async usage(
    @Query('key_id') keyId?: unknown,
    @Query('license_id') licenseId?: unknown,
    @Query('period') period?: unknown,
  ): Promise<UsageReportResponse> {
    const id = (value: unknown, name: string) => {
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || value === '' || value.length > 40 || !isPlainText(value)) {
        throw new InvalidRequestError(`${name} must be an id`);
      }
      return value;
    };
    if (keyId === undefined && licenseId === undefined) throw new InvalidRequestError('key_id or license_id is required');
    if (period !== undefined && typeof period !== 'string') throw new InvalidRequestError('period must be a month, YYYY-MM');
    return usageReportViewOf(
      await this.reportUsage.execute({ keyId: id(keyId, 'key_id'), licenseId: id(licenseId, 'license_id'), period }),
    );
  }
}
