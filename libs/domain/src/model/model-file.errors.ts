import { DomainError } from '../shared/domain-error';

/** A correctly signed link to a stored model file whose expiry has passed (CONTRACT 7). */
export class LinkExpiredError extends DomainError {
  readonly code = 'LINK_EXPIRED' as const;
  constructor() {
    super('Link expired', 'Links to model files expire');
  }
}

/** A link to a stored model file that is unsigned, malformed or altered (CONTRACT 7). */
export class LinkInvalidError extends DomainError {
  readonly code = 'LINK_INVALID' as const;
  constructor() {
    super('Invalid link', 'Model file links are signed');
  }
}

/** A byte range that starts at or past the end of the file; `sizeBytes` goes into `Content-Range: bytes *\/size`. */
export class RangeNotSatisfiableError extends DomainError {
  readonly code = 'RANGE_NOT_SATISFIABLE' as const;
  constructor(readonly sizeBytes: number) {
    super('Range not satisfiable', `The file has ${sizeBytes} bytes`);
  }
}

/**
 * The model store does not answer (an object store down or out of reach):
 * downloads and uploads answer 503 SERVICE_UNAVAILABLE with `Retry-After`
 * (CONTRACT 19); nothing else depends on the store.
 */
export class ModelStoreUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  /** Whole seconds a client should wait before asking again: the edge's `Retry-After`. */
  readonly retryAfterSeconds = 5;
  constructor(options?: { cause?: unknown }) {
    super('Service unavailable', 'The model store cannot be reached; retry shortly', options);
  }
}
