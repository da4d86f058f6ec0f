import { Injectable } from '@nestjs/common';
import {
  ApiKey,
  ApiKeyFormat,
  ApiKeyRepository,
  Clock,
  InvalidFormatError,
  InvalidKeyError,
  KeyExpiredError,
  MissingKeyError,
  SecretHasher,
} from '@svc/domain';

/**
 * The key checks every public endpoint runs first, in CONTRACT 2's order:
 * missing, malformed (no storage touched), unknown or revoked, expired.
 */
@Injectable()
export class AuthenticateApiKey {
  constructor(
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(presented: unknown): Promise<ApiKey> {
    const judged = this.format.judge(presented);
    if (judged.kind === 'missing') throw new MissingKeyError();
    if (judged.kind === 'malformed') throw new InvalidFormatError();
    const key = await this.keys.findByDigest(this.hasher.digest(judged.secret));
    if (!key) throw new InvalidKeyError();
    const verdict = key.verify(this.clock.now());
    if (!verdict.ok) throw verdict.reason === 'REVOKED' ? new InvalidKeyError() : new KeyExpiredError();
    return key;
  }
}
