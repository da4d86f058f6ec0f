import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { KEY_ENVIRONMENTS, KeyEnvironment, LICENSE_TYPES, LicenseType, MONTHLY_LIMIT_BOUNDS } from '@svc/domain';
import { IsPlainText } from '@svc/presentation';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';
import { ENVIRONMENT_RULE, LICENSE_TYPE_RULE, MONTHLY_LIMIT_NUMBER_SCHEMA } from './key-rules';

const MONTHLY_LIMIT_RULE = { message: 'monthly_limit must be an integer >= 0, or null for unlimited' };

/**
 * POST /admin/v1/keys (CONTRACT 12). Shapes, tier names and limits are checked
 * here; the e-mail's form and whether a user is named or created, by the
 * IssueApiKey use case. Fields are declared in the order their rules are judged.
 */
export class CreateKeyRequest {
  @ApiPropertyOptional({
    type: String,
    maxLength: 254,
    description: 'Required unless user_id names an existing user',
    example: 'ada@example.org',
  })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsPlainText('email')
  readonly email?: string;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsPlainText('name')
  readonly name?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsPlainText('organization')
  readonly organization?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 40, description: 'An existing user gets the key' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  @IsPlainText('user_id')
  readonly user_id?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Default: 365 days after issuance; any valid time, past included',
  })
  // omitted keeps the default (or the current expiry); null is refused: every key expires (CONTRACT 1)
  @ValidateIf((_, value) => value !== undefined)
  @IsRfc3339()
  readonly expires_at?: string;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES] })
  @IsIn(LICENSE_TYPES, LICENSE_TYPE_RULE)
  readonly license_type!: LicenseType;

  /** Omitted or null: live. */
  @ApiPropertyOptional({ type: String, enum: [...KEY_ENVIRONMENTS], default: 'live' })
  @IsOptional()
  @IsIn(KEY_ENVIRONMENTS, ENVIRONMENT_RULE)
  readonly environment?: KeyEnvironment | null;

  /** Omitted: the tier's limit; null: unlimited; an integer >= 0: an override. */
  @ApiPropertyOptional({
    ...MONTHLY_LIMIT_NUMBER_SCHEMA,
    nullable: true,
    description: "Omitted: the tier's limit; null: unlimited; an integer: an override",
  })
  @IsOptional()
  @IsInt(MONTHLY_LIMIT_RULE)
  @Min(MONTHLY_LIMIT_BOUNDS.min, MONTHLY_LIMIT_RULE)
  @Max(MONTHLY_LIMIT_BOUNDS.max, MONTHLY_LIMIT_RULE)
  readonly monthly_limit?: number | null;
}
