import { type ApiKey } from '../api-key/api-key';
import { type KeyEnvironment } from '../api-key/api-key-format';
import { type Quota } from '../quota/quota';
import { type LicenseType } from './license-type';

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

/** The longest a license may be trusted offline: a year (a signed license cannot be recalled). */
export const MAX_OFFLINE_LICENSE_TTL_SECONDS = 31_536_000;

/**
 * How long an offline license is trusted: a revoked key's license lives until
 * its `expiresAt`, so the lifetime bounds how long revocation takes to reach
 * an SDK that stays offline. Bound once from configuration.
 */
export class OfflineLicensePolicy {
  constructor(readonly ttlSeconds: number) {
    if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_OFFLINE_LICENSE_TTL_SECONDS) {
      throw new RangeError(`an offline license lives 1 to ${MAX_OFFLINE_LICENSE_TTL_SECONDS} seconds`);
    }
  }

  /**
   * Whether the license stored for a key may be handed out in place of
   * `license` (what the key is entitled to now): it was signed for the same
   * terms (licenseTermsOf), by a key the JWKS still publishes, less than three
   * quarters of a lifetime ago (the refresh job re-signs it from half its
   * lifetime on, so a validate meets an older one only when the job is far
   * behind). A stored license signed after `license`'s moment (another
   * instance's clock a little ahead) is usable too.
   */
  isUsable(stored: StoredLicense, license: OfflineLicense, publishedKids: readonly string[]): boolean {
    return (
      license.issuedAt.getTime() - stored.signedAt.getTime() < this.ttlSeconds * 750 &&
      publishedKids.includes(stored.kid) &&
      stored.terms === licenseTermsOf(license)
    );
  }

  /**
   * When the refresh job re-signs a license signed as `license`: past half its
   * lifetime, plus `jitter` (0 to 1) of another tenth, so licenses signed
   * together are re-signed apart; never after its period ends (`resets_at`
   * changes: the new period's license is signed then) or its key expires
   * (the job then forgets it).
   */
  refreshAtOf(license: OfflineLicense, jitter: number): Date {
    const lifetime = this.ttlSeconds * 1000;
    const halfLife = license.issuedAt.getTime() + Math.floor(lifetime * (0.5 + 0.1 * Math.min(Math.max(jitter, 0), 1)));
    return new Date(Math.min(halfLife, license.resetsAt.getTime(), license.keyExpiresAt.getTime()));
  }

  /** The license stored for `license` once signed as `token` by `kid`. */
  storedOf(license: OfflineLicense, token: string, kid: string, jitter: number): StoredLicense {
    return { token, kid, terms: licenseTermsOf(license), signedAt: license.issuedAt, refreshAt: this.refreshAtOf(license, jitter) };
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

/**
 * What a license says apart from when it was signed, as one JSON text: its
 * key and user, tier, features, limit, period, key expiry, environment and
 * device (the claims it carries, nothing secret). Two licenses with the same
 * terms differ only in `iat` and `exp`; a stored license is handed out only
 * while its terms are those of what the key is entitled to now.
 */
export function licenseTermsOf(license: OfflineLicense): string {
  return JSON.stringify([
    license.keyId,
    license.userId,
    license.licenseType,
    license.features,
    license.monthlyLimit,
    license.resetsAt.getTime(),
    license.keyExpiresAt.getTime(),
    license.environment,
    license.device ?? null,
  ]);
}

/**
 * A key's signed license as the database keeps it (issue 40): signed when the
 * key's terms change and re-signed ahead of need by the refresh job, so that
 * validate and refresh hand it out without signing and every instance hands
 * out the same token for the same terms.
 */
export interface StoredLicense {
  /** The compact JWS handed out. */
  readonly token: string;
  /** The `kid` of the signing key that signed it. */
  readonly kid: string;
  /** licenseTermsOf the license it is (JSON text). */
  readonly terms: string;
  /** Its `iat`. */
  readonly signedAt: Date;
  /** When the refresh job re-signs it (OfflineLicensePolicy.refreshAtOf). */
  readonly refreshAt: Date;
}

/** A stored license the refresh job may re-sign, with its key as stored now (null: none is stored yet). */
export interface LicenseToRefresh {
  readonly key: ApiKey;
  /** The device the license names (NO_DEVICE: none). */
  readonly device: string;
  readonly stored: StoredLicense | null;
}

/** The `device` of a stored license that names no device (the SHA-256 of a named one is 64 hex digits). */
export const NO_DEVICE = '';

/**
 * Whether a stored license is kept (and re-signed ahead) rather than forgotten: while its key can be
 * validated and, when it names a device, while that device holds a seat of the key's license (not
 * deactivated and, with a lease, not lapsed). A call naming a device that holds none is refused
 * (DEVICE_NOT_ACTIVATED), so its license would never be handed out again.
 */
export function isLicenseKept(keyValid: boolean, device: string, deviceHoldsSeat: boolean): boolean {
  return keyValid && (device === NO_DEVICE || deviceHoldsSeat);
}

/**
 * Where each key's signed licenses are kept, shared by every instance: one
 * naming no device (`device` NO_DEVICE), and one per device of the key's
 * license that holds a seat (CONTRACT 23's `device` claim). Writes that race are settled by `replace`'s
 * compare-and-set, so instances that sign at once all hand out the one that
 * was stored.
 */
export abstract class StoredLicenseRepository {
  abstract find(keyId: string, device?: string): Promise<StoredLicense | null>;
  /** Stores `next` for the key (and device) while its stored token is still `expected` (null: none stored); true when stored. */
  abstract replace(keyId: string, expected: string | null, next: StoredLicense, device?: string): Promise<boolean>;
  /** Stores `next` as the key's license naming `device` (NO_DEVICE: none), whatever was stored (its terms just changed, or the device was just activated). */
  abstract put(keyId: string, next: StoredLicense, device?: string): Promise<void>;
  /** Forgets the key's license naming `device`, or all its licenses when `device` is undefined. */
  abstract forget(keyId: string, device?: string): Promise<void>;
  /** Forgets the licenses naming `device` of every key of the license (rotated keys share its devices): the device was deactivated. */
  abstract forgetDevice(licenseId: string, device: string): Promise<void>;
  /** Up to `limit` stored licenses whose `refreshAt` has come at `at`, the earliest first, with their keys. */
  abstract due(at: Date, limit: number): Promise<LicenseToRefresh[]>;
  /** Up to `limit` stored licenses signed by a key other than `kid`, with their keys. */
  abstract signedByOther(kid: string, limit: number): Promise<LicenseToRefresh[]>;
  /**
   * Up to `limit` keys with ids after `afterKeyId` (any state), in id order,
   * each with whether a license naming no device is stored for it: the refresh
   * job walks every key this way, a window a round, for the keys with none
   * (installs from before issue 40).
   */
  abstract keysAfter(afterKeyId: string, limit: number): Promise<Array<{ key: ApiKey; hasLicense: boolean }>>;
  /**
   * Claims a stored license for one refresh by moving its `refreshAt` from
   * `seen` (as read) to `until`: true for the one caller that moved it, so
   * instances running the job together never re-sign the same license.
   */
  abstract claim(keyId: string, device: string, seen: Date, until: Date): Promise<boolean>;
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
