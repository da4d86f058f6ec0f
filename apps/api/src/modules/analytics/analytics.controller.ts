import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RecordEvent, RecordEventOutput } from '@svc/application';
import { ApiKey } from '@svc/domain';
import { ApiKeyGuard, CurrentKey } from '../../http/api-key.guard';
import { RateLimited } from '../../http/rate-limit.guard';
import { ServiceMetrics } from '../../observability/service-metrics';
import { AcceptsKeyFrom } from '../../openapi/accepts-key.decorator';
import { ALWAYS, ApiErrors, BODY, KEY_CHECKS } from '../../openapi/api-errors.decorator';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { KeyBody } from '../auth/dto/key-body';
import { LogEventRequest } from './dto/log-event.request';
import { LogEventResponse, logEventResponseOf } from './dto/log-event.response';

/** SPEC 4.5 / CONTRACT 9: 202 once the event is committed. */
@ApiTags('analytics')
@Controller('v1/analytics')
@UseGuards(ApiKeyGuard)
export class AnalyticsController {
  constructor(
    private readonly recordEvent: RecordEvent,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Post('log')
  @HttpCode(202)
  @AcceptsKeyFrom('body', 'header')
  @RateLimited('analytics')
  @ApiOperation({
    summary: 'Record a usage event',
    description:
      'Each accepted inference event consumes one unit of the monthly quota; nothing else does. Past the quota an ' +
      'inference is refused (429) and not stored; model_load and error events keep working. 1000 per minute.',
  })
  @ApiBody({ type: LogEventRequest })
  @ApiAcceptedResponse({ type: LogEventResponse, headers: RATE_LIMIT_HEADERS, description: 'The event is stored (and its quota unit counted)' })
  @ApiErrors(...BODY, ...KEY_CHECKS, 'MISSING_EVENT_TYPE', 'INVALID_EVENT_TYPE', 'RATE_LIMIT_EXCEEDED', 'QUOTA_EXCEEDED', ...ALWAYS)
  async log(@CurrentKey() key: ApiKey, @Body() body: KeyBody): Promise<LogEventResponse> {
    return logEventResponseOf(this.counted(key, await this.recordEvent.execute({ key, body: body ?? {} })));
  }

  private counted(key: ApiKey, recorded: RecordEventOutput): RecordEventOutput {
    this.metrics.quotaConsumed(key.licenseType, recorded.unitsConsumed);
    return recorded;
  }
}
