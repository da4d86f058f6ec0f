import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_STATUS, type HttpErrorCode } from './error-status.map';

/** Every error code the service answers with, in the order of ERROR_STATUS. */
export const ALL_ERROR_CODES = Object.keys(ERROR_STATUS) as HttpErrorCode[];

/**
 * The one error body (SPEC 7): `{ error, code, message? }` (and DEVICE_LIMIT_REACHED's `max_devices` and `active`), never anything else: never a stack,
 * HTML or the key. The filter answers it and the OpenAPI document states it.
 */
export class ErrorEnvelopeResponse {
  @ApiProperty({ type: String, description: 'A short description of the failure', example: 'Invalid or inactive API key' })
  readonly error!: string;

  @ApiProperty({ type: String, enum: ALL_ERROR_CODES, description: 'The stable error code (SPEC 7, CONTRACT)', example: 'INVALID_KEY' })
  readonly code!: HttpErrorCode;

  @ApiPropertyOptional({ type: String, description: 'More to say, when there is: a hint, or the field at fault' })
  readonly message?: string;

  @ApiPropertyOptional({ type: 'integer', description: "`DEVICE_LIMIT_REACHED` only: the license's device limit", example: 3 })
  readonly max_devices?: number;

  @ApiPropertyOptional({ type: 'integer', description: '`DEVICE_LIMIT_REACHED` only: the devices holding a seat', example: 3 })
  readonly active?: number;
}
