import { ApiProperty } from '@nestjs/swagger';
import { LicensePublicKey } from '@svc/domain';

/** An Ed25519 public key as a JWK (RFC 8037). */
export class LicensePublicKeyResponse implements LicensePublicKey {
  @ApiProperty({ type: String, enum: ['OKP'] })
  readonly kty!: 'OKP';

  @ApiProperty({ type: String, enum: ['Ed25519'] })
  readonly crv!: 'Ed25519';

  @ApiProperty({ type: String, description: 'The public key, base64url', example: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })
  readonly x!: string;

  @ApiProperty({ type: String, description: "The key's RFC 7638 thumbprint: the `kid` of the tokens it signed" })
  readonly kid!: string;

  @ApiProperty({ type: String, enum: ['EdDSA'] })
  readonly alg!: 'EdDSA';

  @ApiProperty({ type: String, enum: ['sig'] })
  readonly use!: 'sig';
}

/** GET /v1/license/jwks (CONTRACT 15): the current signing key's public half first, then older ones. */
export class JwksResponse {
  @ApiProperty({ type: () => LicensePublicKeyResponse, isArray: true })
  readonly keys!: readonly LicensePublicKeyResponse[];
}
