import { type ApiKey } from './api-key';
import { InvalidFormatError, InvalidKeyError, KeyExpiredError, KeyNotFoundError, MissingKeyError } from './api-key.errors';
import { type PresentedKey } from './api-key-format';
import { type DomainErrorCode } from '../shared/error-codes';

/**
 * What a presented key is checked for: `use` (every endpoint that acts for
 * the key) or `revoke` (the holder's revocation, CONTRACT 5: an expired key
 * may still be revoked; unknown or already revoked is KEY_NOT_FOUND).
 */
export type KeyPurpose = 'use' | 'revoke';

/** The codes the checks below answer for each purpose, in the order they are made (CONTRACT 2 and 5). */
export const KEY_CHECK_CODES: Readonly<Record<KeyPurpose, readonly DomainErrorCode[]>> = Object.freeze({
  use: ['MISSING_KEY', 'INVALID_FORMAT', 'INVALID_KEY', 'KEY_EXPIRED'],
  revoke: ['MISSING_KEY', 'INVALID_FORMAT', 'KEY_NOT_FOUND'],
});

/** CONTRACT 2, steps 4-5: judged by form alone, before any storage is read. */
export function assertWellFormed(presented: PresentedKey): asserts presented is Extract<PresentedKey, { kind: 'well-formed' }> {
  if (presented.kind === 'missing') throw new MissingKeyError();
  if (presented.kind === 'malformed') throw new InvalidFormatError();
}

/**
 * CONTRACT 2, steps 6-7 (and CONTRACT 5 for `revoke`): the stored key found
 * by the presented key's digest, or null, judged for the purpose at `now`.
 */
export function assertUsableFor(purpose: KeyPurpose, found: ApiKey | null, now: Date): asserts found is ApiKey {
  if (purpose === 'revoke') {
    if (!found || found.revokedAt) throw new KeyNotFoundError();
    return;
  }
  if (!found) throw new InvalidKeyError();
  const verdict = found.verify(now);
  if (!verdict.ok) throw verdict.reason === 'REVOKED' ? new InvalidKeyError() : new KeyExpiredError();
}
