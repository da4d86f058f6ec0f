import { ApiProperty } from '@nestjs/swagger';
import { SignedLicenseSnapshot } from '@svc/application';
import { LICENSE_TYPES, LicenseType, toSecondTimestamp } from '@svc/domain';
import { QuotaResponse, quotaViewOf } from '@svc/presentation';

/** A shortened example of the signed license (three base64url parts). */
export const LICENSE_TOKEN_EXAMPLE =
  'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCIsImtpZCI6Ii4uLiJ9.eyJpc3MiOiJzdmMtbGljZW5zaW5nIiwic3ViIjoia2V5Xy4uLiJ9.c2lnbmF0dXJl';

export const LICENSE_TOKEN_PROPERTY = {
  type: String,
  description:
    'The signed offline license (CONTRACT 15): a compact JWT, EdDSA (Ed25519), `kid` in the header; verify it with GET /v1/license/jwks and trust it until `exp`',
  example: LICENSE_TOKEN_EXAMPLE,
} as const;

export const ROTATION_RECOMMENDED_PROPERTY = {
  type: Boolean,
  description: 'True once the key is KEY_ROTATION_RECOMMENDED_DAYS old (90 as shipped): rotate it (POST /v1/auth/rotate)',
  example: false,
} as const;

export const FEATURES_EXAMPLE = ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'];

/** SPEC 4.2, the body of refresh; validate adds the user record. */
export class LicenseResponse {
  @ApiProperty({ type: Boolean, enum: [true], description: 'Always true: failures answer the error envelope' })
  readonly valid!: true;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES], example: 'research' })
  readonly license_type!: LicenseType;

  @ApiProperty({ type: String, isArray: true, description: "The tier's features", example: FEATURES_EXAMPLE })
  readonly features!: readonly string[];

  @ApiProperty({ type: () => QuotaResponse })
  readonly quota!: QuotaResponse;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When the key expires (UTC, to the second)',
    example: '2027-11-21T17:33:54Z',
  })
  readonly expires_at!: string;

  @ApiProperty(LICENSE_TOKEN_PROPERTY)
  readonly license_token!: string;

  @ApiProperty(ROTATION_RECOMMENDED_PROPERTY)
  readonly rotation_recommended!: boolean;
}

export function licenseResponseOf(snapshot: SignedLicenseSnapshot): LicenseResponse {
  return {
    valid: true,
    license_type: snapshot.licenseType,
    features: snapshot.features,
    quota: quotaViewOf(snapshot.quota),
    expires_at: toSecondTimestamp(snapshot.expiresAt),
    license_token: snapshot.licenseToken,
    rotation_recommended: snapshot.rotationRecommended,
  };
}
