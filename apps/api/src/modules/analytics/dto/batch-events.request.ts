import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BATCH_LIMITS } from '@svc/domain';
import { API_KEY_EXAMPLE } from '@svc/presentation';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { CheckedBySchema } from '../../../http/body-schema';
import { FieldEventRequest } from './log-event.request';

const EVENTS_RULE = { message: `events must be an array of 1 to ${BATCH_LIMITS.events} events` };

/**
 * POST /v1/analytics/batch (CONTRACT 22): the list as a whole is checked here
 * (a malformed list answers the request); each event is checked on its own,
 * as the single endpoint checks its body, and a bad one gets its own result
 * while the others proceed. The list's own rules have a schema, so the
 * events are handed on as sent (no class-transformer copy of a hundred of
 * them) and each is read by `checkedItem`.
 */
@CheckedBySchema()
export class BatchEventsRequest {
  @ApiPropertyOptional({
    type: String,
    description: 'The API key; may come in the X-API-Key header instead (the body wins when both are present)',
    example: API_KEY_EXAMPLE,
  })
  readonly api_key?: string;

  @ApiProperty({
    type: () => [FieldEventRequest],
    minItems: 1,
    maxItems: BATCH_LIMITS.events,
    description:
      'The events in the order they were recorded; each is judged as POST /v1/analytics/log judges one, in order ' +
      'against the quota. An SDK should give each an idempotency_key, so that the retry of a batch is exact',
  })
  @IsArray(EVENTS_RULE)
  @ArrayMinSize(1, EVENTS_RULE)
  @ArrayMaxSize(BATCH_LIMITS.events, EVENTS_RULE)
  readonly events!: unknown[];
}
