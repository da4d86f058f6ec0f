import { Injectable } from '@nestjs/common';
import { OfflineLicenses } from './license-snapshot';
import {
  type Actor,
  ApiKey,
  ApiKeyFormat,
  ApiKeyRepository,
  type AuditEntry,
  Clock,
  IdGenerator,
  InvalidRequestError,
  KeyRotationPolicy,
  RandomSource,
  ROTATION_GRACE_BOUNDS,
  SecretHasher,
  isRotationGrace,
  keyRotatedEvent,
  toSecondTimestamp,
} from '@svc/domain';

export interface RotatedKey {
  /** The successor: the license's current key from now on. */
  readonly key: ApiKey;
  /** The successor's plaintext: returned here once and never stored or shown again. */
  readonly secret: string;
  /** When the old key stops working: the end of its grace (or now, revoked, for a grace of 0). */
  readonly previousKeyExpiresAt: Date;
  readonly graceSeconds: number;
}

/**
 * Rotates a key (CONTRACT 16) for the holder or an operator: a new secret
 * for the same license, made by the domain's KeyRotationPolicy and stored by
 * the repository's one transaction with an audit entry on each key (never
 * the secret). Answers null when another rotation or a revocation got there
 * first: nothing was changed or written.
 */
@Injectable()
export class KeyRotator {
  constructor(
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly policy: KeyRotationPolicy,
    private readonly licenses: OfflineLicenses,
  ) {}

  async rotate(predecessor: ApiKey, graceSeconds: number | undefined, actor: Actor): Promise<RotatedKey | null> {
    const by = actor.type === 'key' ? 'holder' : 'operator';
    if (graceSeconds !== undefined && !isRotationGrace(graceSeconds)) {
      throw new InvalidRequestError(`grace_seconds must be an integer from ${ROTATION_GRACE_BOUNDS.min} to ${ROTATION_GRACE_BOUNDS.max}`);
    }
    const grace = graceSeconds ?? this.policy.defaultGraceSeconds;
    const now = this.clock.now();
    const secret = this.format.generate(predecessor.props.environment, this.random);
    const rotation = this.policy.rotationOf(
      predecessor,
      { id: this.ids.newId('key'), digest: this.hasher.digest(secret), displayPrefix: ApiKeyFormat.displayPrefixOf(secret) },
      now,
      grace,
    );
    const { successor } = rotation;
    const previousKeyExpiresAt = KeyRotationPolicy.previousKeyStopsAt(rotation);
    const shared = {
      by,
      license_id: successor.licenseId,
      grace_seconds: grace,
      previous_key_expires_at: toSecondTimestamp(previousKeyExpiresAt),
    };
    const audit: AuditEntry[] = [
      {
        id: this.ids.newId('aud'),
        at: now,
        action: 'key.rotated',
        keyId: predecessor.id,
        reason: null,
        details: { ...shared, rotated_to: successor.id },
        actor,
      },
      {
        id: this.ids.newId('aud'),
        at: now,
        action: 'key.rotated',
        keyId: successor.id,
        reason: null,
        details: { ...shared, rotated_from: predecessor.id, prefix: successor.props.displayPrefix },
        actor,
      },
    ];
    const events = [keyRotatedEvent(this.ids.newId('wev'), predecessor, successor, previousKeyExpiresAt, now)];
    if (!(await this.keys.rotate(rotation, { audit, events }))) return null;
    await this.licenses.signAhead(successor, now);
    // the predecessor's terms changed too (its expiry is the grace's end): its license is signed ahead as well
    const inGrace = await this.keys.findById(predecessor.id);
    if (inGrace !== null && inGrace.verify(now).ok) await this.licenses.signAhead(inGrace, now);
    return { key: successor, secret, previousKeyExpiresAt, graceSeconds: grace };
  }
}
