import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { GraceSecondsProperty } from '../../../shared/dto/key.request';

export class AdminRevokeKeyRequest {
  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true, description: 'Kept in the audit log' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string | null;
}

/** POST /admin/v1/keys/{key_id}/rotate (CONTRACT 16): the holder's body without the key. */
export class AdminRotateKeyRequest {
  @GraceSecondsProperty()
  readonly grace_seconds?: number | null;
}
