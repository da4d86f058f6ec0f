/**
 * A license signing key the service generated itself (CONTRACT 19), kept in
 * the database so that every instance and every replaced pod signs with the
 * same one. A configured LICENSE_SIGNING_KEY is never one of these.
 */
export interface LicenseSigningKey {
  /** 1 for the first key, one more for each rotation: the order in which keys sign. */
  readonly generation: number;
  /** The Ed25519 private key, PKCS #8 PEM. Never logged. */
  readonly privateKey: string;
  /** When it was made, and so published in the JWKS. */
  readonly createdAt: Date;
  /** When it starts signing (a rotated key: LICENSE_KEY_PUBLISH_SECONDS after it was published). */
  readonly signsFrom: Date;
}

/** The generated signing keys, shared by every instance. */
export abstract class LicenseSigningKeyRepository {
  /** Every kept key, oldest generation first. */
  abstract list(): Promise<LicenseSigningKey[]>;
  /** Keeps `key` unless a key of its generation is kept already (the first writer wins); true when it was kept. */
  abstract addIfAbsent(key: LicenseSigningKey): Promise<boolean>;
  /** Forgets keys that are no longer published (their last token expired). */
  abstract remove(generations: readonly number[]): Promise<void>;
}

/**
 * How long an instance goes on with the signing keys it read before reading
 * them again: a minute, so every instance follows a rotation within a minute,
 * without a restart.
 */
export const SIGNING_KEYS_REREAD_MS = 60_000;

/** The longest a new signing key may be published before it signs: 30 days. */
export const MAX_LICENSE_KEY_PUBLISH_SECONDS = 2_592_000;

/**
 * When generated signing keys sign and when they are published (CONTRACT 19).
 * A rotated key is published at once and signs only `publishSeconds` later, so
 * an SDK holding a cached JWKS (max-age an hour) has fetched it before it meets
 * a token of the new key. The key it replaces stays published until the last
 * token it signed has expired: its signing end, plus the longest a token lives,
 * plus the minute an instance may take to read the new key.
 */
export class LicenseKeySchedule {
  constructor(
    readonly publishSeconds: number,
    readonly tokenTtlSeconds: number,
  ) {
    if (!Number.isSafeInteger(publishSeconds) || publishSeconds < 0 || publishSeconds > MAX_LICENSE_KEY_PUBLISH_SECONDS) {
      throw new RangeError(`a new signing key is published 0 to ${MAX_LICENSE_KEY_PUBLISH_SECONDS} seconds before it signs`);
    }
  }

  /** The first key of a database that has none: it signs at once (nothing was published before it). */
  first(privateKey: string, now: Date): LicenseSigningKey {
    return { generation: 1, privateKey, createdAt: now, signsFrom: now };
  }

  /** The key a rotation at `now` adds: published now, signing after the publish delay (never before a newer one). */
  next(keys: readonly LicenseSigningKey[], privateKey: string, now: Date): LicenseSigningKey {
    const latest = newestOf(keys);
    const signsFrom = Math.max(now.getTime() + this.publishSeconds * 1000, latest?.signsFrom.getTime() ?? 0);
    return { generation: (latest?.generation ?? 0) + 1, privateKey, createdAt: now, signsFrom: new Date(signsFrom) };
  }

  /** The key that signs at `at`: the newest whose signing has begun (the oldest when none has begun). */
  signingAt(keys: readonly LicenseSigningKey[], at: Date): LicenseSigningKey {
    const ordered = byGeneration(keys);
    if (ordered.length === 0) throw new Error('no license signing key is kept');
    return ordered.filter((key) => key.signsFrom.getTime() <= at.getTime()).pop() ?? ordered[0];
  }

  /**
   * The keys published at `at`: the signing one first, then the ones about to
   * sign (newest first), then the older ones still verifying tokens (newest first).
   */
  publishedAt(keys: readonly LicenseSigningKey[], at: Date): LicenseSigningKey[] {
    const ordered = byGeneration(keys);
    if (ordered.length === 0) return [];
    const signing = this.signingAt(ordered, at);
    const upcoming = ordered.filter((key) => key.generation > signing.generation).reverse();
    const older = ordered
      .filter((key) => key.generation < signing.generation && at.getTime() < this.unpublishedAt(ordered, key).getTime())
      .reverse();
    return [signing, ...upcoming, ...older];
  }

  /** The keys no longer published at `at`: every token they signed has expired. */
  retiredAt(keys: readonly LicenseSigningKey[], at: Date): LicenseSigningKey[] {
    const published = new Set(this.publishedAt(keys, at).map((key) => key.generation));
    return keys.filter((key) => !published.has(key.generation));
  }

  /**
   * When `key` leaves the JWKS: once the key after it signs, the last token
   * `key` signed expires at most a token lifetime later (plus the minute an
   * instance may sign on before it reads the newer key).
   */
  unpublishedAt(keys: readonly LicenseSigningKey[], key: LicenseSigningKey): Date {
    const successor = byGeneration(keys).find((other) => other.generation > key.generation);
    if (successor === undefined) return new Date(8.64e15);
    return new Date(successor.signsFrom.getTime() + this.tokenTtlSeconds * 1000 + SIGNING_KEYS_REREAD_MS);
  }
}

function byGeneration(keys: readonly LicenseSigningKey[]): LicenseSigningKey[] {
  return [...keys].sort((a, b) => a.generation - b.generation);
}

function newestOf(keys: readonly LicenseSigningKey[]): LicenseSigningKey | undefined {
  return byGeneration(keys).pop();
}

/** Makes the private half of a new signing key (Ed25519, PKCS #8 PEM). */
export abstract class LicenseKeyGenerator {
  abstract newPrivateKey(): string;
}
