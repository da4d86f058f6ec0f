import { ApiProperty } from '@nestjs/swagger';
import { ValidateApiKeyOutput } from '@svc/application';
import { LICENSE_TYPES, toSecondTimestamp } from '@svc/domain';
import { QuotaResponse, quotaViewOf } from '@svc/presentation';
import { FEATURES_EXAMPLE, LICENSE_TOKEN_PROPERTY, ROTATION_RECOMMENDED_PROPERTY } from '../../../shared/dto/license.response';

/** SPEC 4.1, field for field, and the signed offline license (CONTRACT 15). */
export class ValidateKeyResponse {
  @ApiProperty({ type: Boolean, enum: [true], description: 'Always true: failures answer the error envelope' })
  readonly valid!: true;

  @ApiProperty({ type: String, example: 'usr_3f1c9a0b7d2e4c5a8b6f0e1d' })
  readonly user_id!: string;

  @ApiProperty({ type: String, example: 'ada@example.org' })
  readonly email!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null when unknown', example: 'Ada Lovelace' })
  readonly name!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'null when unknown', example: 'Analytical Engines Ltd' })
  readonly organization!: string | null;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES], example: 'research' })
  readonly license_type!: string;

  @ApiProperty({ type: String, isArray: true, example: FEATURES_EXAMPLE })
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

export function validateKeyResponseOf(output: ValidateApiKeyOutput): ValidateKeyResponse {
  return {
    valid: true,
    user_id: output.user.id,
    email: output.user.email,
    name: output.user.name,
    organization: output.user.organization,
    license_type: output.licenseType,
    features: output.features,
    quota: quotaViewOf(output.quota),
    expires_at: toSecondTimestamp(output.expiresAt),
    license_token: output.licenseToken,
    rotation_recommended: output.rotationRecommended,
  };
}
