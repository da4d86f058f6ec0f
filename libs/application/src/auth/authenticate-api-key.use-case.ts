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
    return this.executeWith(presented, (digest) => this.keys.findByDigest(digest), (key) => key);
  }

  /**
   * The same checks in the same order, with the stored key read by `find`
   * (by digest): a use case that needs more than the key (validate: its user
   * and usage) reads it all in that one lookup. `keyOf` picks the key out of
   * what `find` answered.
   */
  async executeWith<T>(presented: unknown, find: (digest: string) => Promise<T | null>, keyOf: (found: T) => ApiKey): Promise<T> {
    const judged = this.format.judge(presented);
    if (judged.kind === 'missing') throw new MissingKeyError();
    if (judged.kind === 'malformed') throw new InvalidFormatError();
    const found = await find(this.hasher.digest(judged.secret));
    if (!found) throw new InvalidKeyError();
    const verdict = keyOf(found).verify(this.clock.now());
    if (!verdict.ok) throw verdict.reason === 'REVOKED' ? new InvalidKeyError() : new KeyExpiredError();
    return found;
  }
}
