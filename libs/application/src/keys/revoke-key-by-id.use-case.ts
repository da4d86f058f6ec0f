import { Injectable } from '@nestjs/common';
import { type Actor, ApiKeyRepository, KeyNotFoundError, KeyRevokedError, revocationReasonOf } from '@svc/domain';
import { KeyRevocation } from '../shared/key-revocation';
import { KeyDetails, ShowApiKey } from './show-api-key.use-case';

/** An operator revokes a key by id; a key already revoked answers KEY_REVOKED; a reason over its bound, INVALID_REQUEST. */
@Injectable()
export class RevokeKeyById {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly revocation: KeyRevocation,
    private readonly show: ShowApiKey,
  ) {}

  async execute(input: { keyId: string; reason: string | null; actor: Actor }): Promise<KeyDetails> {
    const reason = revocationReasonOf(input.reason);
    const key = await this.keys.findById(input.keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    if (key.revokedAt || !(await this.revocation.revoke(key.id, reason, input.actor))) {
      throw new KeyRevokedError();
    }
    return this.show.execute(key.id);
  }
}
