import { ApiPropertyOptional } from '@nestjs/swagger';
import { LICENSE_TYPES } from '@svc/domain';
import { Allow, IsOptional } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';

/** PATCH /admin/v1/keys/{key_id}: any of the three; `monthly_limit` may also be `"tier"`. */
export class UpdateKeyRequest {
  @ApiPropertyOptional({ type: String, enum: [...LICENSE_TYPES] })
  @Allow()
  license_type?: unknown;

  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional() @IsRfc3339()
  expires_at?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'integer', minimum: 0 }, { type: 'string', enum: ['tier'] }],
    nullable: true,
    description: 'An integer >= 0 overrides the limit, null makes the key unlimited, "tier" returns it to its tier\'s limit',
  })
  @Allow()
  monthly_limit?: unknown;
}
