import { Injectable } from '@nestjs/common';
import { type Actor, ApiKey, ApiKeyRepository, KeyNotFoundError, KeyRevokedError, KeyRotatedError } from '@svc/domain';
import { KeyRotator, RotatedKey } from '../shared/key-rotator';

/**
 * An operator rotates a key by id (CONTRACT 16): unknown KEY_NOT_FOUND,
 * revoked KEY_REVOKED, already rotated KEY_ROTATED; of concurrent rotations
 * exactly one wins.
 */
@Injectable()
export class RotateKeyById {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly rotator: KeyRotator,
  ) {}

  async execute(input: { keyId: string; graceSeconds?: number; actor: Actor }): Promise<RotatedKey> {
    const key = await this.keys.findById(input.keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    assertRotatable(key);
    const rotated = await this.rotator.rotate(key, input.graceSeconds, input.actor);
    if (rotated) return rotated;
    const now = await this.keys.findById(key.id);
    if (now) assertRotatable(now);
    throw new KeyRotatedError();
  }
}

function assertRotatable(key: ApiKey): void {
  if (key.revokedAt) throw new KeyRevokedError();
  if (key.rotatedTo !== null) throw new KeyRotatedError();
}
