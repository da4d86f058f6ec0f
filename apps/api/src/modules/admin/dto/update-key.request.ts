import { ApiPropertyOptional } from '@nestjs/swagger';
import { LICENSE_TYPES, LicenseType, MONTHLY_LIMIT_BOUNDS, MonthlyLimitChoice } from '@svc/domain';
import { IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';
import { LICENSE_TYPE_RULE, MONTHLY_LIMIT_NUMBER_SCHEMA } from './key-rules';

const MONTHLY_LIMIT_RULE = { message: 'monthly_limit must be an integer >= 0, null for unlimited, or "tier"' };

/**
 * PATCH /admin/v1/keys/{key_id}: any of the three; a field left out is left
 * alone. Fields are declared in the order their rules are judged.
 */
export class UpdateKeyRequest {
  @ApiPropertyOptional({ type: String, format: 'date-time' })
  // omitted keeps the default (or the current expiry); null is refused: every key expires (CONTRACT 1)
  @ValidateIf((_, value) => value !== undefined)
  @IsRfc3339()
  readonly expires_at?: string;

  /** null is refused: a key always has a tier. */
  @ApiPropertyOptional({ type: String, enum: [...LICENSE_TYPES] })
  @ValidateIf((_body, value) => value !== undefined)
  @IsIn(LICENSE_TYPES, LICENSE_TYPE_RULE)
  readonly license_type?: LicenseType;

  /** An integer >= 0 overrides, null is unlimited, "tier" goes back to the tier's limit. */
  @ApiPropertyOptional({
    oneOf: [MONTHLY_LIMIT_NUMBER_SCHEMA, { type: 'string', enum: ['tier'] }],
    nullable: true,
    description: 'An integer >= 0 overrides the limit, null makes the key unlimited, "tier" returns it to its tier\'s limit',
  })
  @ValidateIf((_body, value) => value !== 'tier')
  @IsOptional()
  @IsInt(MONTHLY_LIMIT_RULE)
  @Min(MONTHLY_LIMIT_BOUNDS.min, MONTHLY_LIMIT_RULE)
  @Max(MONTHLY_LIMIT_BOUNDS.max, MONTHLY_LIMIT_RULE)
  readonly monthly_limit?: MonthlyLimitChoice;
}
