import { Injectable } from '@nestjs/common';
import { ApiKey, ApiKeyRepository, InvalidKeyError, KeyRotatedError, keyActor } from '@svc/domain';
import { KeyRotator, RotatedKey } from '../shared/key-rotator';

export interface RotateApiKeyInput {
  /** The authenticated key (key errors were answered before this runs). */
  readonly key: ApiKey;
  /** Seconds the old key keeps working; undefined: the configured default. */
  readonly graceSeconds?: number;
}

/**
 * POST /v1/auth/rotate (CONTRACT 16): the holder swaps the key for a new
 * one of the same license. A key already rotated answers KEY_ROTATED; of
 * concurrent rotations exactly one wins, the others answer KEY_ROTATED (or
 * INVALID_KEY when a revocation won instead).
 */
@Injectable()
export class RotateApiKey {
  constructor(
    private readonly rotator: KeyRotator,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(input: RotateApiKeyInput): Promise<RotatedKey> {
    if (input.key.rotatedTo !== null) throw new KeyRotatedError();
    const rotated = await this.rotator.rotate(input.key, input.graceSeconds, keyActor(input.key.id));
    if (rotated) return rotated;
    const now = await this.keys.findById(input.key.id);
    if (now?.rotatedTo) throw new KeyRotatedError();
    throw new InvalidKeyError();
  }
}
