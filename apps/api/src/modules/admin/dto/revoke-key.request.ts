import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class AdminRevokeKeyRequest {
  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true, description: 'Kept in the audit log' })
  @IsOptional() @IsString() @MaxLength(1000)
  reason?: string | null;
}
