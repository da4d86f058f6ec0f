import { LicenseSnapshot, QuotaView, quotaViewOf } from '@svc/application';
import { LicenseType, toSecondTimestamp } from '@svc/domain';

/** SPEC 2.3. `monthly_limit` and `remaining` are null for an unlimited key. */
export type QuotaResponse = QuotaView;
export const quotaResponseOf = quotaViewOf;

export interface LicenseResponse {
  readonly valid: true;
  readonly license_type: LicenseType;
  readonly features: readonly string[];
  readonly quota: QuotaResponse;
  readonly expires_at: string;
}

/** SPEC 4.2, the body of refresh; validate adds the user record. */
export function licenseResponseOf(snapshot: LicenseSnapshot): LicenseResponse {
  return {
    valid: true,
    license_type: snapshot.licenseType,
    features: snapshot.features,
    quota: quotaResponseOf(snapshot.quota),
    expires_at: toSecondTimestamp(snapshot.expiresAt),
  };
}
