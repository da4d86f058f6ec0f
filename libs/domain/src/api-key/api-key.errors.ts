import { DomainError } from '../shared/domain-error';

export class MissingKeyError extends DomainError {
  readonly code = 'MISSING_KEY' as const;
  constructor() {
    super('API key is required', 'Send the API key as documented for this endpoint');
  }
}

export class InvalidFormatError extends DomainError {
  readonly code = 'INVALID_FORMAT' as const;
  constructor() {
    super('Invalid API key format');
  }
}

/** Unknown and revoked keys look the same to a caller (CONTRACT 2, step 6). */
export class InvalidKeyError extends DomainError {
  readonly code = 'INVALID_KEY' as const;
  constructor() {
    super('Invalid or inactive API key');
  }
}

export class KeyExpiredError extends DomainError {
  readonly code = 'KEY_EXPIRED' as const;
  constructor() {
    super('API key has expired', 'Request a new key from support');
  }
}

/** Revoke endpoint and admin lookups: no such key, or (revoke) already revoked. */
export class KeyNotFoundError extends DomainError {
  readonly code = 'KEY_NOT_FOUND' as const;
  constructor(description = 'API key not found or already revoked') {
    super(description);
  }
}

/** Admin API: a revoked key cannot be changed or revoked again. */
export class KeyRevokedError extends DomainError {
  readonly code = 'KEY_REVOKED' as const;
  constructor() {
    super('API key is revoked', 'A revoked key is permanently inactive');
  }
}

/** Rotation (CONTRACT 16): the key was already rotated; its successor holds the license. */
export class KeyRotatedError extends DomainError {
  readonly code = 'KEY_ROTATED' as const;
  constructor() {
    super('API key was already rotated', 'Use the key the rotation returned; this one works only until its grace period ends');
  }
}
