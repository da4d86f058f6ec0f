import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RecordEvent, RecordEventOutput, RecordEvents, type SentEvent } from '@svc/application';
import { ApiKey, BATCH_LIMITS, DomainError, IDEMPOTENCY_KEY_PATTERN, InvalidRequestError, isIdempotencyKey } from '@svc/domain';
import { ApiKeyAuth } from '../../api-key-auth/api-key-auth.decorator';
import { CurrentKey } from '../../api-key-auth/authenticated-key';
import { bodyLimitOf } from '../../http/request-body';
import { checkedItem } from '../../http/request-validation';
import { ServiceMetrics } from '../../observability/service-metrics';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { BatchEventsRequest } from './dto/batch-events.request';
import { BatchEventsResponse, batchEventsResponseOf } from './dto/batch-events.response';
import { FieldEventRequest, LogEventRequest, sentEventOf } from './dto/log-event.request';
import { LogEventResponse, logEventResponseOf } from './dto/log-event.response';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** SPEC 4.5, CONTRACT 9 and 22: 202 once the event is committed; a batch's events committed together. */
@ApiTags('analytics')
@Controller('v1/analytics')
export class AnalyticsController {
  constructor(
    private readonly recordEvent: RecordEvent,
    private readonly recordEvents: RecordEvents,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Post('log')
  @HttpCode(202)
  @ApiKeyAuth({
    from: ['body', 'header'],
    limit: 'analytics',
    errors: ['MISSING_EVENT_TYPE', 'INVALID_EVENT_TYPE', 'IDEMPOTENCY_KEY_REUSED', 'QUOTA_EXCEEDED'],
  })
  @ApiOperation({
    summary: 'Record a usage event',
    description:
      'Each accepted inference event consumes one unit of the monthly quota; nothing else does. Past the quota an ' +
      'inference is refused (429) and not stored; model_load and error events keep working. 1000 per minute. ' +
      'An event named by an idempotency key (body idempotency_key, or the Idempotency-Key header) is stored and ' +
      'charged once: a repeat answers 202 with the first event_id and duplicate: true.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'The idempotency_key, when the body has none (the body wins)',
    schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source, maxLength: 128 },
  })
  @ApiBody({ type: LogEventRequest })
  @ApiAcceptedResponse({
    type: LogEventResponse,
    headers: RATE_LIMIT_HEADERS,
    description: 'The event is stored (and its quota unit counted), or was stored before under the same idempotency key',
  })
  async log(
    @CurrentKey() key: ApiKey,
    @Body() body: LogEventRequest,
    @Headers(IDEMPOTENCY_KEY_HEADER) header?: string,
  ): Promise<LogEventResponse> {
    const sent = sentEventOf(body, body.idempotency_key == null ? headerKeyOf(header) : null);
    return logEventResponseOf(this.counted(key, await this.recordEvent.execute({ key, sent })));
  }

  @Post('batch')
  @HttpCode(200)
  @RouteConfig(bodyLimitOf(BATCH_LIMITS.bodyBytes))
  @ApiKeyAuth({ from: ['body', 'header'], limit: 'analyticsBatch' })
  @ApiOperation({
    summary: 'Record up to 100 usage events at once',
    description:
      `1 to ${BATCH_LIMITS.events} events in at most 1 MiB, each as POST /v1/analytics/log takes one, judged in order: ` +
      'each inference consumes one unit while quota remains; once it is used up later inferences get 429 while ' +
      'model_load and error events are still accepted. All accepted events are committed together before the ' +
      'answer; a repeat (same idempotency_key) answers as the first did. One result per event, in order. ' +
      '100 per minute.',
  })
  @ApiBody({ type: BatchEventsRequest })
  @ApiOkResponse({ type: BatchEventsResponse, headers: RATE_LIMIT_HEADERS, description: 'Each event judged; the accepted ones stored' })
  async batch(@CurrentKey() key: ApiKey, @Body() body: BatchEventsRequest): Promise<BatchEventsResponse> {
    const events = body.events.map((item, index) => sentOrRefused(checkedItem(FieldEventRequest, item, `events[${index}]`)));
    const recorded = await this.recordEvents.execute({ key, events, batched: true });
    this.metrics.quotaConsumed(key.licenseType, recorded.unitsConsumed);
    return batchEventsResponseOf(recorded);
  }

  private counted(key: ApiKey, recorded: RecordEventOutput): RecordEventOutput {
    this.metrics.quotaConsumed(key.licenseType, recorded.unitsConsumed);
    return recorded;
  }
}

/** The Idempotency-Key header's value, checked as the body's field is; absent: null. */
function headerKeyOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!isIdempotencyKey(header)) throw new InvalidRequestError('Idempotency-Key must be 1 to 128 characters of A-Z a-z 0-9 . _ : -');
  return header;
}

function sentOrRefused(checked: FieldEventRequest | DomainError): SentEvent | DomainError {
  return checked instanceof DomainError ? checked : sentEventOf(checked);
}
