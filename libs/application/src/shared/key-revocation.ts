import { Injectable } from '@nestjs/common';
import {
  type Actor,
  type AuditEntry,
  ApiKeyRepository,
  Clock,
  IdGenerator,
  keyRevokedEvent,
  redactKeyShapedText,
  revocationOf,
} from '@svc/domain';

/**
 * Revokes a key by id, once, with its audit entry in the same transaction.
 * The reason is kept with key-shaped text replaced: a holder who pastes a key
 * into it (the one they revoke, or another) never has it stored or shown back.
 */
@Injectable()
export class KeyRevocation {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * True for the one caller that revoked the key; false if it was already
   * revoked or is unknown. Revoking a license's current key revokes the keys
   * it was rotated from that are still in their grace (CONTRACT 16): none
   * outlives the key that replaced it. Each key revoked has its entry, all
   * written together or not at all.
   */
  async revoke(keyId: string, reason: string | null, actor: Actor): Promise<boolean> {
    const by = actor.type === 'key' ? 'holder' : 'operator';
    const key = await this.keys.findById(keyId);
    if (!key || key.revokedAt) return false;
    const at = this.clock.now();
    const license = await this.keys.findByLicense(key.licenseId);
    const kept = reason === null ? null : redactKeyShapedText(reason);
    const entry = (revoked: string): AuditEntry => ({
      id: this.ids.newId('aud'),
      at,
      action: 'key.revoked',
      keyId: revoked,
      reason: kept,
      details: revoked === keyId ? { by } : { by, with_successor: keyId },
      actor,
    });
    const event = (revoked: string) => {
      const revokedKey = license.find((k) => k.id === revoked) ?? key;
      return keyRevokedEvent(this.ids.newId('wev'), revokedKey, at, revoked === keyId ? null : keyId);
    };
    return this.keys.revoke(revocationOf(key, license, at), (revoked) => ({ audit: [entry(revoked)], events: [event(revoked)] }));
  }
}
