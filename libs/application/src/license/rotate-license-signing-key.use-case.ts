import { Injectable } from '@nestjs/common';
import { Clock, LicenseKeyGenerator, LicenseKeySchedule, type LicenseSigningKey, LicenseSigningKeyRepository } from '@svc/domain';

/** What a signing-key rotation did. */
export interface SigningKeyRotation {
  /** The new key: published at once, signing from its `signsFrom`. */
  readonly added: LicenseSigningKey;
  /** The key it replaces, and when that one leaves the JWKS (its last token expired); null on a database without keys. */
  readonly replaced: { readonly key: LicenseSigningKey; readonly unpublishedAt: Date } | null;
  /** Generations forgotten because every token they signed has expired. */
  readonly removed: readonly number[];
}

/** How many times a rotation that lost the race for a generation (another rotation at the same moment) tries again. */
const ATTEMPTS = 3;

/**
 * `license rotate-signing-key` (CONTRACT 19): a new generated signing key,
 * published at once and signing after the publish delay; the key it replaces
 * stays published until its last token expired. Keys whose last token has
 * expired are forgotten on the way. Every instance reads the new key within
 * a minute, without a restart.
 */
@Injectable()
export class RotateLicenseSigningKey {
  constructor(
    private readonly keys: LicenseSigningKeyRepository,
    private readonly schedule: LicenseKeySchedule,
    private readonly generator: LicenseKeyGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<SigningKeyRotation> {
    for (let attempt = 1; ; attempt++) {
      const now = this.clock.now();
      const kept = await this.keys.list();
      const added = this.schedule.next(kept, this.generator.newPrivateKey(), now);
      if (await this.keys.addIfAbsent(added)) {
        const all = [...kept, added];
        const removed = this.schedule.retiredAt(all, now).map((key) => key.generation);
        await this.keys.remove(removed);
        const previous = kept.find((key) => key.generation === added.generation - 1);
        return {
          added,
          replaced: previous ? { key: previous, unpublishedAt: this.schedule.unpublishedAt(all, previous) } : null,
          removed,
        };
      }
      if (attempt === ATTEMPTS) throw new Error('another signing-key rotation kept winning the race; try again');
    }
  }
}
