import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LICENSE_TYPES } from '@svc/domain';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';

/** `monthly_limit`: an integer >= 0, or null for unlimited. */
export const MONTHLY_LIMIT_SCHEMA = { type: 'integer', minimum: 0, nullable: true } as const;

/**
 * POST /admin/v1/keys (CONTRACT 12). Shapes are checked here; domain rules
 * (tier names, limits, e-mail form) are checked once, by the IssueApiKey use case.
 */
export class CreateKeyRequest {
  @ApiPropertyOptional({ type: String, maxLength: 254, description: 'Required unless user_id names an existing user', example: 'ada@example.org' })
  @IsOptional() @IsString() @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @IsOptional() @IsString() @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @IsOptional() @IsString() @MaxLength(200)
  organization?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 40, description: 'An existing user gets the key' })
  @IsOptional() @IsString() @MaxLength(40)
  user_id?: string;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES] })
  @Allow()
  license_type!: unknown;

  @ApiPropertyOptional({ type: String, enum: ['live', 'test'], default: 'live' })
  @Allow()
  environment?: unknown;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Default: 365 days after issuance; any valid time, past included' })
  @IsOptional() @IsRfc3339()
  expires_at?: string;

  /** Omitted: the tier's limit; null: unlimited; an integer >= 0: an override. */
  @ApiPropertyOptional({ ...MONTHLY_LIMIT_SCHEMA, description: "Omitted: the tier's limit; null: unlimited; an integer: an override" })
  @Allow()
  monthly_limit?: unknown;
}
