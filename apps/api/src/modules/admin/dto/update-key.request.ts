import { Allow, IsOptional } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';

/** PATCH /admin/v1/keys/{key_id}: any of the three; `monthly_limit` may also be `"tier"`. */
export class UpdateKeyRequest {
  @Allow()
  license_type?: unknown;

  @IsOptional() @IsRfc3339()
  expires_at?: string;

  @Allow()
  monthly_limit?: unknown;
}
