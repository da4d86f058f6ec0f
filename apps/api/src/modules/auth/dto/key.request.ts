import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_REVOCATION_REASON_LENGTH } from '@svc/domain';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export const API_KEY_EXAMPLE = 'svc_live_0123456789abcdef0123456789abcdef0123456789abcdef';

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

const REASON_RULE = `reason must be a string of at most ${MAX_REVOCATION_REASON_LENGTH} characters`;

export class RevokeKeyRequest extends KeyRequest {
  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_REVOCATION_REASON_LENGTH,
    nullable: true,
    description: 'Why the key is revoked (kept in the audit log, key-shaped text replaced)',
    example: 'rotated',
  })
  @IsOptional()
  @IsString({ message: REASON_RULE })
  @MaxLength(MAX_REVOCATION_REASON_LENGTH, { message: REASON_RULE })
  readonly reason?: string | null;
}
