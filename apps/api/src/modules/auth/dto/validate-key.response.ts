import { ValidateApiKeyOutput } from '@svc/application';
import { toSecondTimestamp } from '@svc/domain';
import { QuotaResponse, quotaResponseOf } from './license.response';

/** SPEC 4.1, field for field. */
export interface ValidateKeyResponse {
  readonly valid: true;
  readonly user_id: string;
  readonly email: string;
  readonly name: string | null;
  readonly organization: string | null;
  readonly license_type: string;
  readonly features: readonly string[];
  readonly quota: QuotaResponse;
  readonly expires_at: string;
}

export function validateKeyResponseOf(output: ValidateApiKeyOutput): ValidateKeyResponse {
  return {
    valid: true,
    user_id: output.user.id,
    email: output.user.email,
    name: output.user.name,
    organization: output.user.organization,
    license_type: output.licenseType,
    features: output.features,
    quota: quotaResponseOf(output.quota),
    expires_at: toSecondTimestamp(output.expiresAt),
  };
}
