import { IsOptional, IsString, MaxLength } from 'class-validator';

export class AdminRevokeKeyRequest {
  @IsOptional() @IsString() @MaxLength(1000)
  reason?: string | null;
}
