import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  EVENT_LIMITS,
  EVENT_TYPES,
  EventReport,
  EventType,
  IDEMPOTENCY_KEY_PATTERN,
  INFERENCE_TYPES,
  InferenceType,
  OCCURRED_AT_WINDOW,
  parseRfc3339,
} from '@svc/domain';
import { type SentEvent } from '@svc/application';
import { API_KEY_EXAMPLE, IsPlainText } from '@svc/presentation';
import { IsBoolean, IsIn, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CheckedBySchema } from '../../../http/body-schema';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';
import { IsPresent, IsSmallJsonObject, answers } from '../../../http/request-validation';

const stringRule = (field: string, max: number) => ({ message: `${field} must be a string of at most ${max} characters` });
const DURATION_RULE = { message: 'duration_ms must be a finite number >= 0' };
const IDEMPOTENCY_KEY_RULE = { message: 'idempotency_key must be 1 to 128 characters of A-Z a-z 0-9 . _ : -' };
const OCCURRED_AT_RULE = {
  message: 'occurred_at must be an RFC 3339 date-time with an offset, such as 2026-11-28T09:30:00Z',
};

/**
 * POST /v1/analytics/log (SPEC 4.5, CONTRACT 9): `event_type` absent, null or
 * blank answers MISSING_EVENT_TYPE, any other value outside the three
 * INVALID_EVENT_TYPE; a bad optional field INVALID_REQUEST naming it. `null`
 * counts as absent; unknown fields are ignored. Bounds are the domain's.
 */
@CheckedBySchema()
export class FieldEventRequest {
  @ApiProperty({
    type: String,
    enum: [...EVENT_TYPES],
    description: 'Absent or empty: MISSING_EVENT_TYPE; any other value: INVALID_EVENT_TYPE',
  })
  @IsPresent(answers('MISSING_EVENT_TYPE'))
  @IsIn(EVENT_TYPES, answers('INVALID_EVENT_TYPE'))
  readonly event_type!: EventType;

  @ApiPropertyOptional({ type: String, maxLength: EVENT_LIMITS.modelNameLength, example: 'motor_imagery_4class_v1' })
  @IsOptional()
  @IsString(stringRule('model_name', EVENT_LIMITS.modelNameLength))
  @MaxLength(EVENT_LIMITS.modelNameLength, stringRule('model_name', EVENT_LIMITS.modelNameLength))
  @IsPlainText('model_name')
  readonly model_name?: string | null;

  @ApiPropertyOptional({ type: String, enum: [...INFERENCE_TYPES] })
  @IsOptional()
  @IsIn(INFERENCE_TYPES, { message: 'inference_type must be batch or streaming' })
  readonly inference_type?: InferenceType | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, description: 'Milliseconds', example: 12.5 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, DURATION_RULE)
  @Min(0, DURATION_RULE)
  @Max(EVENT_LIMITS.durationMs, DURATION_RULE)
  readonly duration_ms?: number | null;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @IsBoolean({ message: 'success must be true or false' })
  readonly success?: boolean | null;

  @ApiPropertyOptional({ type: String, maxLength: EVENT_LIMITS.errorMessageLength, description: 'What went wrong, for error events' })
  @IsOptional()
  @IsString(stringRule('error_message', EVENT_LIMITS.errorMessageLength))
  @MaxLength(EVENT_LIMITS.errorMessageLength, stringRule('error_message', EVENT_LIMITS.errorMessageLength))
  @IsPlainText('error_message', { multiLine: true })
  readonly error_message?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Free-form event data (trial count, accuracy, mean confidence, ...), at most 16 KiB of JSON',
    example: { trials: 40, accuracy: 0.82 },
  })
  @IsOptional()
  @IsSmallJsonObject(EVENT_LIMITS.metadataBytes, {
    message: `metadata must be a JSON object of at most ${EVENT_LIMITS.metadataBytes} bytes`,
  })
  readonly metadata?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    type: String,
    pattern: IDEMPOTENCY_KEY_PATTERN.source,
    maxLength: 128,
    description:
      'Names this event once, chosen by the SDK when it records it (a UUIDv7 is the suggested choice); unique per ' +
      'license. A repeat answers as the first did, with duplicate: true, and is neither stored nor charged again; ' +
      'the same key with different fields is 409 IDEMPOTENCY_KEY_REUSED',
    example: '0192f1c4-7e1a-7cc3-8a5e-3f1b2c4d5e6f',
  })
  @IsOptional()
  @IsString(IDEMPOTENCY_KEY_RULE)
  @Matches(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE)
  readonly idempotency_key?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description:
      `When the SDK recorded the event (RFC 3339 with an offset), from ${OCCURRED_AT_WINDOW.pastDays} days before ` +
      `the request to ${OCCURRED_AT_WINDOW.futureMinutes} minutes after it; absent, the time it is received. ` +
      'Quota is consumed in the period the event is received',
    example: '2026-11-28T09:30:00Z',
  })
  @IsOptional()
  @IsRfc3339(OCCURRED_AT_RULE)
  readonly occurred_at?: string | null;
}

/**
 * POST /v1/analytics/log: one event, and the key in the body or the
 * X-API-Key header (the body wins); the idempotency key may come in the
 * Idempotency-Key header instead (the body wins).
 */
@CheckedBySchema()
export class LogEventRequest extends FieldEventRequest {
  @ApiPropertyOptional({
    type: String,
    description: 'The API key; may come in the X-API-Key header instead (the body wins when both are present)',
    example: API_KEY_EXAMPLE,
  })
  readonly api_key?: string;
}

/** The checked report, as the domain names it. */
export function eventReportOf(body: FieldEventRequest): EventReport {
  return {
    eventType: body.event_type,
    modelName: body.model_name ?? null,
    inferenceType: body.inference_type ?? null,
    durationMs: body.duration_ms ?? null,
    success: body.success ?? null,
    errorMessage: body.error_message ?? null,
    metadata: body.metadata ?? null,
  };
}

/** The checked event; `headerKey` is the Idempotency-Key header, which the body's field overrides. */
export function sentEventOf(body: FieldEventRequest, headerKey: string | null = null): SentEvent {
  return {
    report: eventReportOf(body),
    idempotencyKey: body.idempotency_key ?? headerKey,
    occurredAt: body.occurred_at == null ? null : parseRfc3339(body.occurred_at),
  };
}
