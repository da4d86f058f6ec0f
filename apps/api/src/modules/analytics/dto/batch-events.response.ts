import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type EventResult, type RecordEventsOutput } from '@svc/application';
import { publicHintOf } from '@svc/presentation';
import { ERROR_STATUS } from '../../../http/error-status.map';
import { ReducedQuotaResponse } from './log-event.response';

const RESULT_CODES = ['INVALID_REQUEST', 'MISSING_EVENT_TYPE', 'INVALID_EVENT_TYPE', 'IDEMPOTENCY_KEY_REUSED', 'QUOTA_EXCEEDED'];

/** What became of one event of a batch (CONTRACT 22). */
export class BatchEventResultResponse {
  @ApiProperty({ type: 'integer', description: "The event's place in the request's `events`, from 0", example: 0 })
  readonly index!: number;

  @ApiProperty({
    type: 'integer',
    enum: [202, 400, 409, 429],
    description: '202: stored (or stored before, `duplicate`); else what POST /v1/analytics/log would answer for it',
  })
  readonly status!: 202 | 400 | 409 | 429;

  @ApiPropertyOptional({ type: String, description: 'Status 202: the stored event', example: 'evt_3f1c9a0b7d2e4c5a8b6f0e1d' })
  readonly event_id?: string;

  @ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description: 'Present on a repeat: its idempotency key names an event stored before (its id above); nothing was stored or consumed',
  })
  readonly duplicate?: true;

  @ApiPropertyOptional({
    type: String,
    enum: RESULT_CODES,
    description: 'Status 400, 409 or 429: the error code',
    example: 'QUOTA_EXCEEDED',
  })
  readonly code?: string;

  @ApiPropertyOptional({ type: String, description: 'Status 400, 409 or 429: a short description', example: 'Monthly quota exceeded' })
  readonly error?: string;

  @ApiPropertyOptional({ type: String, description: 'More to say, when there is: a hint, or the field at fault' })
  readonly message?: string;
}

export class BatchEventsResponse {
  @ApiProperty({ type: () => [BatchEventResultResponse], description: 'One result per event, in order' })
  readonly results!: BatchEventResultResponse[];

  @ApiProperty({ type: 'integer', description: 'Events stored now', example: 98 })
  readonly accepted!: number;

  @ApiProperty({ type: 'integer', description: 'Repeats of events stored before (status 202 with duplicate)', example: 1 })
  readonly duplicates!: number;

  @ApiProperty({ type: 'integer', description: 'Events refused (status 400, 409 or 429): none of them stored', example: 1 })
  readonly refused!: number;

  @ApiProperty({ type: () => ReducedQuotaResponse, description: "The license's quota after the batch" })
  readonly quota!: ReducedQuotaResponse;
}

function resultOf(result: EventResult, index: number): BatchEventResultResponse {
  if (result.accepted) {
    return result.duplicate
      ? { index, status: 202, event_id: result.eventId, duplicate: true }
      : { index, status: 202, event_id: result.eventId };
  }
  const { error } = result;
  const hint = publicHintOf(error);
  return {
    index,
    status: ERROR_STATUS[error.code] as 400 | 409 | 429,
    code: error.code,
    error: error.description,
    ...(hint === undefined ? {} : { message: hint }),
  };
}

export function batchEventsResponseOf(output: RecordEventsOutput): BatchEventsResponse {
  const results = output.results.map(resultOf);
  const accepted = results.filter((r) => r.status === 202 && !r.duplicate).length;
  const duplicates = results.filter((r) => r.duplicate).length;
  return {
    results,
    accepted,
    duplicates,
    refused: results.length - accepted - duplicates,
    quota: { used: output.quota.used, remaining: output.quota.remaining },
  };
}
