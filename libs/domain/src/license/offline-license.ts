import { type ApiKey } from '../api-key/api-key';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../api-key/api-key-format';
import { type Quota } from '../quota/quota';
import { LICENSE_TYPES, type LicenseType, rankOf } from './license-type';

/**
 * What a signed offline license says (CONTRACT 15): the SDK keeps it and trusts
 * it until `expiresAt` without the network. It names the key by id and the user
 * by id; never the key, its digest or the user's e-mail.
 */
export interface OfflineLicense {
  readonly keyId: string;
  readonly userId: string;
  readonly licenseType: LicenseType;
  readonly features: readonly string[];
  readonly monthlyLimit: number | null;
  /** The end of the quota period the license was issued in. */
  readonly resetsAt: Date;
  readonly keyExpiresAt: Date;
  readonly environment: KeyEnvironment;
  readonly issuedAt: Date;
  /** The earlier of the key's expiry and `issuedAt` + the policy's lifetime. */
  readonly expiresAt: Date;
  /** The SHA-256 (hex) of the fingerprint of the device the call named (CONTRACT 23); absent when it named none. */
  readonly device?: string;
}

/**
 * What is kept of a signed license to decide whether it may be handed out
 * again: what it says and when it was issued, every instant as epoch
 * milliseconds. A service keeps one per recently validated key (ten thousand
 * at most), so no Date objects: four of them per license were a large share
 * of what the kept licenses held in memory.
 */
export interface LicenseTerms {
  readonly keyId: string;
  readonly userId: string;
  readonly licenseType: LicenseType;
  readonly features: readonly string[];
  readonly monthlyLimit: number | null;
  readonly resetsAtMs: number;
  readonly keyExpiresAtMs: number;
  readonly environment: KeyEnvironment;
  readonly issuedAtMs: number;
  readonly device?: string;
}

/** The terms of `license`; the tier and environment as the domain's own constants, not the stored row's copies. */
export function termsOf(license: OfflineLicense): LicenseTerms {
  return {
    keyId: license.keyId,
    userId: license.userId,
    licenseType: LICENSE_TYPES[rankOf(license.licenseType)],
    features: license.features,
    monthlyLimit: license.monthlyLimit,
    resetsAtMs: license.resetsAt.getTime(),
    keyExpiresAtMs: license.keyExpiresAt.getTime(),
    environment: KEY_ENVIRONMENTS[KEY_ENVIRONMENTS.indexOf(license.environment)],
    issuedAtMs: license.issuedAt.getTime(),
    ...(license.device === undefined ? {} : { device: license.device }),
  };
}

/** The longest a license may be trusted offline: a year (a signed license cannot be recalled). */
export const MAX_OFFLINE_LICENSE_TTL_SECONDS = 31_536_000;

/**
 * The longest a signed license is handed out again while it says the same: an
 * hour (see `OfflineLicensePolicy.reuseMs`).
 */
export const MAX_OFFLINE_LICENSE_REUSE_MS = 3_600_000;

/**
 * How long an offline license is trusted: a revoked key's license lives until
 * its `expiresAt`, so the lifetime bounds how long revocation takes to reach
 * an SDK that stays offline. Bound once from configuration.
 */
export class OfflineLicensePolicy {
  /**
   * How long a signed license may be handed out again while it says the same:
   * a hundredth of its lifetime, at most an hour (7 days: an hour). An SDK
   * validating often then costs one signature an hour, the license it gets
   * has at least 99 % of its lifetime left, and a license that says anything
   * else (a tier or limit change, a new period) is signed at once.
   */
  readonly reuseMs: number;

  constructor(readonly ttlSeconds: number) {
    if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_OFFLINE_LICENSE_TTL_SECONDS) {
      throw new RangeError(`an offline license lives 1 to ${MAX_OFFLINE_LICENSE_TTL_SECONDS} seconds`);
    }
    this.reuseMs = Math.min(MAX_OFFLINE_LICENSE_REUSE_MS, ttlSeconds * 10);
  }

  /** Whether the license signed with `signed`'s terms may be handed out again in place of `license`: the same terms, signed less than `reuseMs` before. */
  isReusable(signed: LicenseTerms, license: OfflineLicense): boolean {
    const age = license.issuedAt.getTime() - signed.issuedAtMs;
    return age >= 0 && age < this.reuseMs && sameTerms(signed, license);
  }

  /** The license for `key` with the entitlement it has at `issuedAt`; never outliving the key. */
  licenseOf(key: ApiKey, features: readonly string[], quota: Quota, issuedAt: Date, device?: string | null): OfflineLicense {
    const lifetimeEnd = issuedAt.getTime() + this.ttlSeconds * 1000;
    return {
      keyId: key.id,
      userId: key.userId,
      licenseType: key.licenseType,
      features,
      monthlyLimit: quota.monthlyLimit,
      resetsAt: quota.period.resetsAt,
      keyExpiresAt: key.expiresAt,
      environment: key.props.environment,
      issuedAt,
      expiresAt: new Date(Math.min(key.expiresAt.getTime(), lifetimeEnd)),
      ...(device ? { device } : {}),
    };
  }
}

/** Whether a license says what `a` says (tier, features, limit, period, expiries, environment), whenever each was issued. */
function sameTerms(a: LicenseTerms, b: OfflineLicense): boolean {
  if (
    a.keyId !== b.keyId ||
    a.userId !== b.userId ||
    a.licenseType !== b.licenseType ||
    a.monthlyLimit !== b.monthlyLimit ||
    a.resetsAtMs !== b.resetsAt.getTime() ||
    a.keyExpiresAtMs !== b.keyExpiresAt.getTime() ||
    a.environment !== b.environment ||
    a.device !== b.device ||
    a.features.length !== b.features.length
  ) {
    return false;
  }
  for (let i = 0; i < a.features.length; i++) if (a.features[i] !== b.features[i]) return false;
  return true;
}

/** An Ed25519 public key as a JWK (RFC 8037), with the id tokens name it by. */
export interface LicensePublicKey {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly alg: 'EdDSA';
  readonly use: 'sig';
}

/**
 * Signs offline licenses (CONTRACT 15): a compact JWS with EdDSA, the signing
 * key named by `kid`. Every instance signs alike (the configured key, or the
 * generated ones every instance reads from the database); the public keys (the
 * signing one, any about to sign, and any kept for tokens signed before a key
 * change) are published so any JOSE library verifies offline.
 */
export abstract class LicenseSigner {
  /** Signs with the key that signs at the license's `issuedAt`. */
  abstract sign(license: OfflineLicense): Promise<string>;
  /** The `kid` of the key that signs at `at`: a token signed under another is not handed out again. */
  abstract signingKeyAt(at: Date): Promise<string>;
  /** The keys published at `at`: the signing one first, then the others still or already published. */
  abstract publicKeys(at: Date): Promise<readonly LicensePublicKey[]>;
}
