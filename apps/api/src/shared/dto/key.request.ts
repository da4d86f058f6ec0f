import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_ROTATION_GRACE_SECONDS, MAX_REVOCATION_REASON_LENGTH, REVOCATION_REASON_RULE, ROTATION_GRACE_BOUNDS } from '@svc/domain';
import { API_KEY_EXAMPLE, IsPlainText } from '@svc/presentation';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CheckedBySchema } from '../../http/body-schema';

/**
 * The auth bodies (SPEC 4.1-4.3). The key itself is read and checked by the
 * key guard before the ValidationPipe sees the body (key errors win, CONTRACT 2).
 */
export class KeyRequest {
  @ApiProperty({
    type: String,
    description: 'The API key: `<prefix>_live_` or `<prefix>_test_` followed by 48 hex digits',
    example: API_KEY_EXAMPLE,
  })
  readonly api_key!: string;
}

/** A revocation's `reason` (the domain's bound, `revocationReasonOf`), shared by the holder's and the operators' bodies. */
export function RevocationReasonProperty(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: MAX_REVOCATION_REASON_LENGTH, nullable: true, description, example: 'rotated' }),
    IsOptional(),
    IsString({ message: REVOCATION_REASON_RULE }),
    MaxLength(MAX_REVOCATION_REASON_LENGTH, { message: REVOCATION_REASON_RULE }),
    IsPlainText('reason'),
  );
}

@CheckedBySchema()
export class RevokeKeyRequest extends KeyRequest {
  @RevocationReasonProperty('Why the key is revoked (kept in the audit log, key-shaped text replaced)')
  readonly reason?: string | null;
}

const GRACE_RULE = `grace_seconds must be an integer from ${ROTATION_GRACE_BOUNDS.min} to ${ROTATION_GRACE_BOUNDS.max}`;

/** `grace_seconds` of a rotation (CONTRACT 16), shared by the holder's and the operators' bodies. */
export function GraceSecondsProperty(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: ROTATION_GRACE_BOUNDS.min,
      maximum: ROTATION_GRACE_BOUNDS.max,
      nullable: true,
      description:
        'Seconds the old key keeps working (then KEY_EXPIRED); 0 revokes it at once (then INVALID_KEY). ' +
        `Default: KEY_ROTATION_GRACE_SECONDS (${DEFAULT_ROTATION_GRACE_SECONDS} as shipped)`,
      example: DEFAULT_ROTATION_GRACE_SECONDS,
    }),
    IsOptional(),
    IsInt({ message: GRACE_RULE }),
    Min(ROTATION_GRACE_BOUNDS.min, { message: GRACE_RULE }),
    Max(ROTATION_GRACE_BOUNDS.max, { message: GRACE_RULE }),
  );
}

/** POST /v1/auth/rotate (CONTRACT 16). */
@CheckedBySchema()
export class RotateKeyRequest extends KeyRequest {
  @GraceSecondsProperty()
  readonly grace_seconds?: number | null;
}
