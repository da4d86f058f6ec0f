import { Injectable } from '@nestjs/common';
import { type Actor, ApiKeyRepository, AuditLog, Clock, IdGenerator, redactKeyShapedText } from '@svc/domain';

/**
 * Revokes a key by id, once, and records it in the audit log. The reason is
 * kept with key-shaped text replaced: a holder who pastes a key into it
 * (the one they revoke, or another) never has it stored or shown back.
 */
@Injectable()
export class KeyRevocation {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * True for the one caller that revoked the key; false if it was already
   * revoked or is unknown. Revoking a license's current key revokes the keys
   * it was rotated from that are still in their grace (CONTRACT 16): none
   * outlives the key that replaced it.
   */
  async revoke(keyId: string, reason: string | null, actor: Actor): Promise<boolean> {
    const by = actor.type === 'key' ? 'holder' : 'operator';
    const at = this.clock.now();
    const won = await this.keys.markRevoked(keyId, at);
    if (!won) return won;
    const kept = reason === null ? null : redactKeyShapedText(reason);
    await this.record(keyId, at, kept, { by }, actor);
    const revoked = await this.keys.findById(keyId);
    if (revoked && revoked.rotatedTo === null && revoked.props.rotatedFrom !== null) {
      for (const predecessor of await this.keys.findByLicense(revoked.licenseId)) {
        if (predecessor.rotatedTo === null || predecessor.revokedAt) continue;
        if (await this.keys.markRevoked(predecessor.id, at)) {
          await this.record(predecessor.id, at, kept, { by, with_successor: keyId }, actor);
        }
      }
    }
    return won;
  }

  private record(keyId: string, at: Date, reason: string | null, details: Record<string, unknown>, actor: Actor): Promise<void> {
    return this.audit.append({ id: this.ids.newId('aud'), at, action: 'key.revoked', keyId, reason, details, actor });
  }
}
