import { type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { isEd25519PrivateKey } from '@svc/config/license-keys';
import {
  type Clock,
  type LicenseKeySchedule,
  type LicensePublicKey,
  LicenseSigner,
  type LicenseSigningKey,
  LicenseKeyGenerator,
  type LicenseSigningKeyRepository,
  type OfflineLicense,
  SIGNING_KEYS_REREAD_MS,
  toSecondTimestamp,
} from '@svc/domain';
import { legacySecretIn } from './legacy-secret-file';

/** The `iss` of every license token: the service's name. */
export const LICENSE_ISSUER = 'svc-licensing';

/**
 * Signs offline licenses (CONTRACT 15) under the configured key: a compact JWT,
 * EdDSA over Ed25519, `kid` the key's RFC 7638 thumbprint (jose computes it and
 * exports the public JWK). The signature itself is node:crypto's one-shot Ed25519,
 * byte-equal to jose's `SignJWT` (its spec holds them equal). The key object is
 * made once; a signature costs the claims' JSON and one Ed25519 signing.
 */
export class Ed25519LicenseSigner extends LicenseSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly kid: string,
    private readonly published: readonly LicensePublicKey[],
  ) {
    super();
  }

  /** From the signing key (PEM) and the older public keys (SPKI PEM) still published. */
  static async create(signingKeyPem: string, olderPublicKeys: readonly string[] = []): Promise<Ed25519LicenseSigner> {
    const privateKey = createPrivateKey(signingKeyPem);
    const current = await publicJwkOf(createPublicKey(privateKey));
    return new Ed25519LicenseSigner(privateKey, current.jwk.kid, await licensePublicKeysOf([current.pem, ...olderPublicKeys]));
  }

  sign(license: OfflineLicense): Promise<string> {
    return signedToken(license, this.privateKey, this.kid);
  }

  async signingKeyAt(): Promise<string> {
    return this.kid;
  }

  async publicKeys(): Promise<readonly LicensePublicKey[]> {
    return this.published;
  }
}

/** A generated key ready to sign: its key object and its public JWK (made once per key). */
interface SigningMaterial {
  readonly privateKey: KeyObject;
  readonly jwk: LicensePublicKey;
}

/**
 * Signs offline licenses with the generated keys every instance reads from the
 * database (CONTRACT 19), by the schedule: the key whose signing has begun at a
 * license's `issuedAt` signs it; the JWKS lists the keys the schedule publishes,
 * then the configured older keys (LICENSE_VERIFY_KEYS_FILE). The keys are read
 * again at most once a minute (SIGNING_KEYS_REREAD_MS, on the service's clock),
 * so a rotation reaches every running instance within a minute, without a restart.
 */
export class KeptLicenseSigner extends LicenseSigner {
  private read: { readonly at: number; readonly keys: readonly LicenseSigningKey[] };
  private rereading?: Promise<void>;
  private readonly materials = new Map<number, Promise<SigningMaterial>>();

  private constructor(
    private readonly repository: LicenseSigningKeyRepository,
    private readonly schedule: LicenseKeySchedule,
    private readonly clock: Clock,
    private readonly olderPublicKeys: readonly LicensePublicKey[],
    keys: readonly LicenseSigningKey[],
  ) {
    super();
    this.read = { at: clock.now().getTime(), keys };
  }

  /**
   * The signer over the kept keys. A database with none gets its first: the
   * key an earlier version left in `legacyFile` under the data directory (so
   * its tokens still verify), or a new one. Of instances starting together the
   * first to keep generation 1 wins; the others read it back.
   */
  static async open(
    repository: LicenseSigningKeyRepository,
    schedule: LicenseKeySchedule,
    clock: Clock,
    legacyFile: string,
    olderPublicKeys: readonly string[] = [],
  ): Promise<KeptLicenseSigner> {
    let keys = await repository.list();
    if (keys.length === 0) {
      const earlier = await legacySecretIn({
        file: legacyFile,
        accepts: isEd25519PrivateKey,
        refusal: `the license signing key file ${legacyFile} is not an Ed25519 private key; remove it or set LICENSE_SIGNING_KEY`,
      });
      await repository.addIfAbsent(schedule.first(earlier ?? newLicenseKeyPair().privateKey.trim(), clock.now()));
      keys = await repository.list();
    }
    return new KeptLicenseSigner(repository, schedule, clock, await licensePublicKeysOf(olderPublicKeys), keys);
  }

  async sign(license: OfflineLicense): Promise<string> {
    const { privateKey, jwk } = await this.materialOf(this.schedule.signingAt(await this.keys(), license.issuedAt));
    return signedToken(license, privateKey, jwk.kid);
  }

  async signingKeyAt(at: Date): Promise<string> {
    return (await this.materialOf(this.schedule.signingAt(await this.keys(), at))).jwk.kid;
  }

  async publicKeys(at: Date): Promise<readonly LicensePublicKey[]> {
    const published = await Promise.all(this.schedule.publishedAt(await this.keys(), at).map((key) => this.materialOf(key)));
    const jwks = [...published.map((material) => material.jwk), ...this.olderPublicKeys];
    return jwks.filter((key, i) => jwks.findIndex((other) => other.kid === key.kid) === i);
  }

  /** The keys as last read; read again (once, whoever asks) when the read is a minute old. */
  private async keys(): Promise<readonly LicenseSigningKey[]> {
    const now = this.clock.now().getTime();
    if (now < this.read.at || now - this.read.at >= SIGNING_KEYS_REREAD_MS) {
      this.rereading ??= this.reread(now).finally(() => (this.rereading = undefined));
      await this.rereading;
    }
    return this.read.keys;
  }

  private async reread(now: number): Promise<void> {
    let keys = this.read.keys;
    try {
      const listed = await this.repository.list();
      if (listed.length > 0) keys = listed;
    } catch {
      // the database does not answer: sign on with the keys read, and try again in a minute
    }
    this.read = { at: now, keys };
  }

  private materialOf(key: LicenseSigningKey): Promise<SigningMaterial> {
    let material = this.materials.get(key.generation);
    if (material === undefined) {
      const privateKey = createPrivateKey(key.privateKey);
      material = publicJwkOf(createPublicKey(privateKey)).then(({ jwk }) => ({ privateKey, jwk }));
      this.materials.set(key.generation, material);
    }
    return material;
  }
}

/**
 * The compact JWS (RFC 7515 §7.1) of the claims, EdDSA over Ed25519: the
 * bytes jose's `SignJWT` produces for the same header and claims (Ed25519 is
 * deterministic; ed25519-license-signer.spec.ts holds them equal). Signed with
 * node:crypto's synchronous one-shot `sign`: jose has no synchronous signing,
 * and its asynchronous `crypto.sign` hands every signature to libuv's thread
 * pool, which on validate's path cost more CPU than the signature itself.
 */
export function signedToken(license: OfflineLicense, privateKey: KeyObject, kid: string): Promise<string> {
  const input = `${base64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid }))}.${base64url(JSON.stringify(claimsOf(license)))}`;
  return Promise.resolve(`${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`);
}

const base64url = (text: string): string => Buffer.from(text).toString('base64url');

/** The token's claims, exactly CONTRACT 15's (and CONTRACT 23's `device` when the call named one): never the key, its digest or the e-mail. */
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
    ...(license.device === undefined ? {} : { device: license.device }),
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

/** New signing keys for rotations: Ed25519, PKCS #8 PEM. */
export class Ed25519LicenseKeyGenerator extends LicenseKeyGenerator {
  newPrivateKey(): string {
    return newLicenseKeyPair().privateKey.trim();
  }
}

/** The `kid` tokens signed by `privateKeyPem` carry. */
export async function kidOf(privateKeyPem: string): Promise<string> {
  return (await publicJwkOf(createPublicKey(createPrivateKey(privateKeyPem)))).jwk.kid;
}
