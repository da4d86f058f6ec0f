import { DomainError } from './domain-error';

/**
 * The database cannot be reached or cannot answer in time: not a bug, and not
 * the request's fault. Each database's module raises it for its own driver's
 * failures (connection refused or lost, timeouts, busy or locked), with the
 * seconds after which a retry is worth making; the pool reconnects by itself
 * when the database is back. The driver's error is the `cause` (logged, never sent).
 */
export class DatabaseUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;

  constructor(
    /** Whole seconds a client should wait before trying again (the edge's `Retry-After`). */
    readonly retryAfterSeconds: number,
    options: { cause: unknown },
  ) {
    super('Service unavailable', 'The service cannot reach its database; retry shortly', options);
  }
}
