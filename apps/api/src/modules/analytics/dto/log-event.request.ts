import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES, INFERENCE_TYPES } from '@svc/domain';
import { API_KEY_EXAMPLE } from '../../auth/dto/key.request';

/**
 * The documented shape of POST /v1/analytics/log (SPEC 4.5, CONTRACT 9). The
 * handler reads the body as parsed JSON: the domain judges it, after the key.
 */
export class LogEventRequest {
  @ApiPropertyOptional({
    type: String,
    description: 'The API key; may come in the X-API-Key header instead (the body wins when both are present)',
    example: API_KEY_EXAMPLE,
  })
  readonly api_key?: string;

  @ApiProperty({ type: String, enum: [...EVENT_TYPES], description: 'Absent or empty: MISSING_EVENT_TYPE; any other value: INVALID_EVENT_TYPE' })
  readonly event_type!: string;

  @ApiPropertyOptional({ type: String, maxLength: 200, example: 'motor_imagery_4class_v1' })
  readonly model_name?: string;

  @ApiPropertyOptional({ type: String, enum: [...INFERENCE_TYPES] })
  readonly inference_type?: string;

  @ApiPropertyOptional({ type: Number, minimum: 0, description: 'Milliseconds', example: 12.5 })
  readonly duration_ms?: number;

  @ApiPropertyOptional({ type: Boolean })
  readonly success?: boolean;

  @ApiPropertyOptional({ type: String, maxLength: 2000, description: 'What went wrong, for error events' })
  readonly error_message?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Free-form event data (trial count, accuracy, mean confidence, ...), at most 16 KiB of JSON',
    example: { trials: 40, accuracy: 0.82 },
  })
  readonly metadata?: Record<string, unknown>;
}
