import { Injectable } from '@nestjs/common';
import { ApiKeyRepository, AuditLog, Clock, IdGenerator, redactKeyShapedText } from '@svc/domain';

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

  /** True for the one caller that revoked the key; false if it was already revoked or is unknown. */
  async revoke(keyId: string, reason: string | null, by: 'holder' | 'operator'): Promise<boolean> {
    const at = this.clock.now();
    const won = await this.keys.markRevoked(keyId, at);
    if (won) {
      await this.audit.append({
        id: this.ids.newId('aud'),
        at,
        action: 'key.revoked',
        keyId,
        reason: reason === null ? null : redactKeyShapedText(reason),
        details: { by },
      });
    }
    return won;
  }
}
