import { ApiPropertyOptional } from '@nestjs/swagger';
import { LICENSE_TYPES, LicenseType, MAX_DEVICES_BOUND, MAX_DEVICES_RULE, MONTHLY_LIMIT_BOUNDS, MonthlyLimitChoice } from '@svc/domain';
import { IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';
import { LICENSE_TYPE_RULE, MONTHLY_LIMIT_NUMBER_SCHEMA } from './key-rules';

const MONTHLY_LIMIT_RULE = { message: 'monthly_limit must be an integer >= 0, null for unlimited, or "tier"' };
const MAX_DEVICES = { message: MAX_DEVICES_RULE };

/**
 * PATCH /admin/v1/keys/{key_id}: any of the four; a field left out is left
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

  /** The license's seats (CONTRACT 23): an integer >= 0 overrides the tier's, null goes back to it. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_DEVICES_BOUND,
    nullable: true,
    description:
      "How many devices the key's license may have active, for all its keys (rotated ones too); null goes back to the tier's. " +
      'Lower than the active count is allowed: the devices keep their seats and no device is activated until fewer are active.',
  })
  @IsOptional()
  @IsInt(MAX_DEVICES)
  @Min(0, MAX_DEVICES)
  @Max(MAX_DEVICES_BOUND, MAX_DEVICES)
  readonly max_devices?: number | null;
}
