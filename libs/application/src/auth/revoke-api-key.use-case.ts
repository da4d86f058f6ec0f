import { Injectable } from '@nestjs/common';
import { ApiKey, KeyNotFoundError, keyActor, revocationReasonOf } from '@svc/domain';
import { KeyRevocation } from '../shared/key-revocation';

export interface RevokeApiKeyInput {
  /** The key checked for revocation (AuthenticateApiKey, purpose `revoke`). */
  readonly key: ApiKey;
  readonly reason: string | null;
}

/**
 * POST /v1/auth/revoke: whoever holds a key may revoke it, expired or not.
 * Of concurrent calls exactly one wins; the others answer KEY_NOT_FOUND. A
 * reason over its bound is INVALID_REQUEST.
 */
@Injectable()
export class RevokeApiKey {
  constructor(private readonly revocation: KeyRevocation) {}

  async execute(input: RevokeApiKeyInput): Promise<void> {
    const won = await this.revocation.revoke(input.key.id, revocationReasonOf(input.reason), keyActor(input.key.id));
    if (!won) throw new KeyNotFoundError();
  }
}
