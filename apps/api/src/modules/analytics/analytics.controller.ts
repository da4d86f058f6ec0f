import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RecordEvent, RecordEventOutput } from '@svc/application';
import { ApiKey } from '@svc/domain';
import { ApiKeyAuth } from '../../api-key-auth/api-key-auth.decorator';
import { CurrentKey } from '../../api-key-auth/authenticated-key';
import { ServiceMetrics } from '../../observability/service-metrics';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { LogEventRequest, eventReportOf } from './dto/log-event.request';
import { LogEventResponse, logEventResponseOf } from './dto/log-event.response';

/** SPEC 4.5 / CONTRACT 9: 202 once the event is committed. */
@ApiTags('analytics')
@Controller('v1/analytics')
export class AnalyticsController {
  constructor(
    private readonly recordEvent: RecordEvent,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Post('log')
  @HttpCode(202)
  @ApiKeyAuth({ from: ['body', 'header'], limit: 'analytics', errors: ['MISSING_EVENT_TYPE', 'INVALID_EVENT_TYPE', 'QUOTA_EXCEEDED'] })
  @ApiOperation({
    summary: 'Record a usage event',
    description:
      'Each accepted inference event consumes one unit of the monthly quota; nothing else does. Past the quota an ' +
      'inference is refused (429) and not stored; model_load and error events keep working. 1000 per minute.',
  })
  @ApiBody({ type: LogEventRequest })
  @ApiAcceptedResponse({
    type: LogEventResponse,
    headers: RATE_LIMIT_HEADERS,
    description: 'The event is stored (and its quota unit counted)',
  })
  async log(@CurrentKey() key: ApiKey, @Body() body: LogEventRequest): Promise<LogEventResponse> {
    return logEventResponseOf(this.counted(key, await this.recordEvent.execute({ key, report: eventReportOf(body) })));
  }

  private counted(key: ApiKey, recorded: RecordEventOutput): RecordEventOutput {
    this.metrics.quotaConsumed(key.licenseType, recorded.unitsConsumed);
    return recorded;
  }
}
