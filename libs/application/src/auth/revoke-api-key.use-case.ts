import { Injectable } from '@nestjs/common';
import {
  ApiKeyFormat,
  ApiKeyRepository,
  InvalidFormatError,
  InvalidRequestError,
  MAX_REVOCATION_REASON_LENGTH,
  KeyNotFoundError,
  MissingKeyError,
  SecretHasher,
  revocationReasonOf,
} from '@svc/domain';
import { KeyRevocation } from '../shared/key-revocation';

export interface RevokeApiKeyInput {
  readonly presentedKey: unknown;
  /** Untrusted: judged only after the key (key errors win, CONTRACT 2). */
  readonly reason: unknown;
}

/**
 * POST /v1/auth/revoke: whoever holds a key may revoke it, expired or not.
 * Unknown or already revoked: KEY_NOT_FOUND. Of concurrent calls exactly one wins.
 */
@Injectable()
export class RevokeApiKey {
  constructor(
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly keys: ApiKeyRepository,
    private readonly revocation: KeyRevocation,
  ) {}

  async execute(input: RevokeApiKeyInput): Promise<void> {
    const judged = this.format.judge(input.presentedKey);
    if (judged.kind === 'missing') throw new MissingKeyError();
    if (judged.kind === 'malformed') throw new InvalidFormatError();
    const key = await this.keys.findByDigest(this.hasher.digest(judged.secret));
    if (!key || key.revokedAt) throw new KeyNotFoundError();
    const reason = revocationReasonOf(input.reason);
    if (reason === undefined) {
      throw new InvalidRequestError(`reason must be a string of at most ${MAX_REVOCATION_REASON_LENGTH} characters`);
    }
    const won = await this.revocation.revoke(key.id, reason, 'holder');
    if (!won) throw new KeyNotFoundError();
  }
}
