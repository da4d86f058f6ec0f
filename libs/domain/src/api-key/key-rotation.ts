import { ApiKey } from './api-key';

/** The bounds of a rotation's grace period, in seconds (CONTRACT 16: 0 to 7 days). */
export const ROTATION_GRACE_BOUNDS = Object.freeze({ min: 0, max: 604_800 });

/** Shipped defaults (CONTRACT 13 and 16): a day of grace; rotation recommended at 90 days. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
export const DEFAULT_ROTATION_RECOMMENDED_DAYS = 90;

/** True for a grace an operator or a holder may ask for: a whole number of seconds within the bounds. */
export function isRotationGrace(seconds: unknown): seconds is number {
  return (
    typeof seconds === 'number' &&
    Number.isSafeInteger(seconds) &&
    seconds >= ROTATION_GRACE_BOUNDS.min &&
    seconds <= ROTATION_GRACE_BOUNDS.max
  );
}

/** What a successor key gets that the rotation cannot know: its identity and its digest. */
export interface SuccessorIdentity {
  readonly id: string;
  readonly digest: string;
  readonly displayPrefix: string;
}

/**
 * The one step a repository makes atomically (ApiKeyRepository.rotate): the
 * predecessor is marked rotated (and its expiry lowered to the end of the
 * grace, or revoked at once for a grace of 0) only while it is neither
 * rotated nor revoked, and the successor is stored with it.
 */
export interface KeyRotation {
  readonly predecessor: ApiKey;
  readonly successor: ApiKey;
  /** When the predecessor stops working: `expires_at` lowered to this (never raised). */
  readonly predecessorExpiresAt: Date;
  /** Set for a grace of 0: the predecessor is revoked at this instant instead. */
  readonly predecessorRevokedAt: Date | null;
}

/**
 * Key rotation (SPEC 5.7, CONTRACT 16), as configured: the default grace and
 * the age at which rotation is recommended. The grace is expressed by
 * lowering the old key's `expires_at` to the end of the grace, so the usual
 * expiry check answers KEY_EXPIRED once it ends; a grace of 0 revokes the old
 * key at once (INVALID_KEY, CONTRACT 2). The successor inherits the user,
 * tier, environment, expiry, limit setting and license of the old key.
 */
export class KeyRotationPolicy {
  constructor(
    readonly defaultGraceSeconds: number = DEFAULT_ROTATION_GRACE_SECONDS,
    readonly recommendedAfterDays: number = DEFAULT_ROTATION_RECOMMENDED_DAYS,
  ) {
    if (!isRotationGrace(defaultGraceSeconds)) {
      throw new Error(`the default rotation grace must be ${ROTATION_GRACE_BOUNDS.min}-${ROTATION_GRACE_BOUNDS.max} seconds`);
    }
    if (!Number.isSafeInteger(recommendedAfterDays) || recommendedAfterDays < 1) {
      throw new Error('the rotation recommendation age must be a whole number of days >= 1');
    }
  }

  /** `rotation_recommended` of validate and refresh: the key is at least the configured age. */
  isRecommendedFor(key: ApiKey, now: Date): boolean {
    return now.getTime() - key.props.createdAt.getTime() >= this.recommendedAfterDays * 86_400_000;
  }

  /**
   * The rotation of `predecessor` at `now` with `graceSeconds` (undefined:
   * the default; the caller has checked it with isRotationGrace).
   */
  rotationOf(predecessor: ApiKey, successor: SuccessorIdentity, now: Date, graceSeconds?: number): KeyRotation {
    const grace = graceSeconds ?? this.defaultGraceSeconds;
    const p = predecessor.props;
    const graceEnd = new Date(Math.min(p.expiresAt.getTime(), now.getTime() + grace * 1000));
    return {
      predecessor,
      successor: new ApiKey({
        id: successor.id,
        userId: p.userId,
        digest: successor.digest,
        displayPrefix: successor.displayPrefix,
        environment: p.environment,
        licenseType: p.licenseType,
        expiresAt: p.expiresAt,
        revokedAt: null,
        monthlyLimit: p.monthlyLimit,
        createdAt: now,
        licenseId: p.licenseId,
        rotatedFrom: p.id,
        rotatedTo: null,
      }),
      predecessorExpiresAt: grace === 0 ? p.expiresAt : graceEnd,
      predecessorRevokedAt: grace === 0 ? now : null,
    };
  }

  /** When the old key stops answering: the end of its grace, or the revocation of a grace of 0. */
  static previousKeyStopsAt(rotation: KeyRotation): Date {
    return rotation.predecessorRevokedAt ?? rotation.predecessorExpiresAt;
  }
}
