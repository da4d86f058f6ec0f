import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const API_KEY_EXAMPLE = 'svc_live_0123456789abcdef0123456789abcdef0123456789abcdef';

/**
 * The documented shape of the auth bodies (SPEC 4.1-4.3). The handlers read
 * the body as parsed JSON (`KeyBody`): the key's own checks answer first.
 */
export class KeyRequest {
  @ApiProperty({
    type: String,
    description: 'The API key: `<prefix>_live_` or `<prefix>_test_` followed by 48 hex digits',
    example: API_KEY_EXAMPLE,
  })
  readonly api_key!: string;
}

export class RevokeKeyRequest extends KeyRequest {
  @ApiPropertyOptional({ type: String, maxLength: 1000, description: 'Why the key is revoked (kept in the audit log)', example: 'rotated' })
  readonly reason?: string;
}
