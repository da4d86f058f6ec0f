import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_LIMITS, EVENT_TYPES, EventReport, EventType, INFERENCE_TYPES, InferenceType } from '@svc/domain';
import { API_KEY_EXAMPLE, IsPlainText } from '@svc/presentation';
import { IsBoolean, IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CheckedBySchema } from '../../../http/body-schema';
import { IsPresent, IsSmallJsonObject, answers } from '../../../http/request-validation';

const stringRule = (field: string, max: number) => ({ message: `${field} must be a string of at most ${max} characters` });
const DURATION_RULE = { message: 'duration_ms must be a finite number >= 0' };

/**
 * POST /v1/analytics/log (SPEC 4.5, CONTRACT 9): `event_type` absent, null or
 * blank answers MISSING_EVENT_TYPE, any other value outside the three
 * INVALID_EVENT_TYPE; a bad optional field INVALID_REQUEST naming it. `null`
 * counts as absent; unknown fields are ignored. Bounds are the domain's.
 */
@CheckedBySchema()
export class LogEventRequest {
  @ApiPropertyOptional({
    type: String,
    description: 'The API key; may come in the X-API-Key header instead (the body wins when both are present)',
    example: API_KEY_EXAMPLE,
  })
  readonly api_key?: string;

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
}

/** The checked report, as the domain names it. */
export function eventReportOf(body: LogEventRequest): EventReport {
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
