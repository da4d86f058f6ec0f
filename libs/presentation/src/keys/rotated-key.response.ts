import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_EXAMPLE } from './key.response';

/** POST /v1/auth/rotate and POST /admin/v1/keys/{key_id}/rotate (CONTRACT 16). */
export class RotatedKeyResponse {
  @ApiProperty({ type: String, description: 'The new plaintext key: shown this once, never again', example: API_KEY_EXAMPLE })
  readonly api_key!: string;

  @ApiProperty({ type: String, description: "The new key's id", example: 'key_3f1c9a0b7d2e4c5a8b6f0e1d' })
  readonly key_id!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: "The new key's expiry: the old key's, unchanged",
    example: '2027-11-21T17:33:54Z',
  })
  readonly expires_at!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When the old key stops working: the end of the grace (then KEY_EXPIRED), or now for grace_seconds 0 (revoked)',
    example: '2026-11-22T17:33:54Z',
  })
  readonly previous_key_expires_at!: string;

  @ApiProperty({ type: String, example: 'API key rotated: store the new key; the previous key works until 2026-11-22T17:33:54Z' })
  readonly message!: string;
}
