import { type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK } from 'jose';
import { isEd25519PrivateKey } from '@svc/config/license-keys';
import { type LicensePublicKey, LicenseSigner, type OfflineLicense, toSecondTimestamp } from '@svc/domain';
import { keptSecretOf } from './kept-secret-file';

/** The `iss` of every license token: the service's name. */
export const LICENSE_ISSUER = 'svc-licensing';

/**
 * Signs offline licenses with `jose` (CONTRACT 15): a compact JWT, EdDSA over
 * Ed25519, `kid` the key's RFC 7638 thumbprint. The key object is made once;
 * a signature costs the claims' JSON and one Ed25519 signing.
 */
export class JoseLicenseSigner extends LicenseSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly kid: string,
    private readonly published: readonly LicensePublicKey[],
  ) {
    super();
  }

  /** From the signing key (PEM) and the older public keys (SPKI PEM) still published. */
  static async create(signingKeyPem: string, olderPublicKeys: readonly string[] = []): Promise<JoseLicenseSigner> {
    const privateKey = createPrivateKey(signingKeyPem);
    const current = await publicJwkOf(createPublicKey(privateKey));
    return new JoseLicenseSigner(privateKey, current.jwk.kid, await licensePublicKeysOf([current.pem, ...olderPublicKeys]));
  }

  sign(license: OfflineLicense): Promise<string> {
    return new SignJWT(claimsOf(license)).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: this.kid }).sign(this.privateKey);
  }

  publicKeys(): readonly LicensePublicKey[] {
    return this.published;
  }
}

/** The token's claims, exactly CONTRACT 15's: never the key, its digest or the e-mail. */
export function claimsOf(license: OfflineLicense) {
  return {
    iss: LICENSE_ISSUER,
    sub: license.keyId,
    uid: license.userId,
    license_type: license.licenseType,
    features: license.features,
    quota: { monthly_limit: license.monthlyLimit, resets_at: toSecondTimestamp(license.resetsAt) },
    key_expires_at: toSecondTimestamp(license.keyExpiresAt),
    environment: license.environment,
    iat: Math.floor(license.issuedAt.getTime() / 1000),
    exp: Math.floor(license.expiresAt.getTime() / 1000),
  };
}

/** Ed25519 public keys (SPKI PEM) as the JWKS publishes them, each once, in order. */
export async function licensePublicKeysOf(publicKeys: readonly string[]): Promise<LicensePublicKey[]> {
  const jwks = await Promise.all(publicKeys.map(async (pem) => (await publicJwkOf(createPublicKey(pem))).jwk));
  return jwks.filter((key, i) => jwks.findIndex((other) => other.kid === key.kid) === i);
}

async function publicJwkOf(key: KeyObject): Promise<{ jwk: LicensePublicKey; pem: string }> {
  const { x } = await exportJWK(key);
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: x! } as const;
  const pem = key.export({ type: 'spki', format: 'pem' }).toString();
  return { jwk: { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'EdDSA', use: 'sig' }, pem };
}

/** A new Ed25519 key pair in PEM: PKCS #8 private, SPKI public. */
export function newLicenseKeyPair(): { readonly privateKey: string; readonly publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

/**
 * The signing key: the configured one; else, the one kept in `file` under the
 * data directory, generated at the first start (mode 0600) so tokens keep
 * verifying across restarts. Several instances must share a configured key.
 */
export async function licenseSigningKeyOf(configured: string | null, file: string): Promise<string> {
  if (configured !== null) return configured;
  return keptSecretOf({
    file,
    generate: () => newLicenseKeyPair().privateKey.trim(),
    accepts: isEd25519PrivateKey,
    refusal: `the license signing key file ${file} is not an Ed25519 private key; remove it or set LICENSE_SIGNING_KEY`,
  });
}
