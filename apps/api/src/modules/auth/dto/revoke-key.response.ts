import { ApiProperty } from '@nestjs/swagger';

/** SPEC 4.3 with CONTRACT 5's message. */
export class RevokeKeyResponse {
  @ApiProperty({ type: Boolean, enum: [true] })
  readonly revoked!: true;

  @ApiProperty({ type: String, example: 'API key successfully revoked' })
  readonly message!: string;
}

export const KEY_REVOKED_RESPONSE: RevokeKeyResponse = Object.freeze({
  revoked: true,
  message: 'API key successfully revoked',
});
