import type { DomainErrorCode } from './error-codes';

/**
 * An error a use case may raise on purpose. `description` becomes the
 * envelope's `error`, `hint` its optional `message`; both are safe to show to
 * a client. Anything private belongs in `cause`, which is logged, never sent.
 */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;

  protected constructor(
    readonly description: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(description, options);
    this.name = new.target.name;
  }
}

/** A request field that breaks a domain rule; `hint` names the field. */
export class InvalidRequestError extends DomainError {
  readonly code = 'INVALID_REQUEST' as const;
  constructor(hint: string) {
    super('Invalid request', hint);
  }
}
