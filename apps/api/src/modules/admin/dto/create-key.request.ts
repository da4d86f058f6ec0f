import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsRfc3339 } from '../../../http/is-rfc3339.decorator';

/**
 * POST /admin/v1/keys (CONTRACT 12). Shapes are checked here; domain rules
 * (tier names, limits, e-mail form) are checked once, by the IssueApiKey use case.
 */
export class CreateKeyRequest {
  @IsOptional() @IsString() @MaxLength(254)
  email?: string;

  @IsOptional() @IsString() @MaxLength(200)
  name?: string | null;

  @IsOptional() @IsString() @MaxLength(200)
  organization?: string | null;

  @IsOptional() @IsString() @MaxLength(40)
  user_id?: string;

  @Allow()
  license_type!: unknown;

  @Allow()
  environment?: unknown;

  @IsOptional() @IsRfc3339()
  expires_at?: string;

  /** Omitted: the tier's limit; null: unlimited; an integer >= 0: an override. */
  @Allow()
  monthly_limit?: unknown;
}
