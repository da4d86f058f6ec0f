import { DatabaseFaults } from '@svc/application';
import { DatabaseUnavailableError, InvalidRequestError } from '@svc/domain';

/**
 * How one database's driver says that the database cannot answer now (rather
 * than that a statement is wrong): the error codes and messages its module
 * knows, and the retry hint it gives. Each database's module states its own.
 */
export interface DriverFaults {
  /** A driver (or TypeORM) error code that means the database is unavailable. */
  readonly code: (code: string) => boolean;
  /** Messages of errors that carry no such code. */
  readonly messages: readonly RegExp[];
  /** Whole seconds a client should wait before retrying (`Retry-After`). */
  readonly retryAfterSeconds: number;
  /** A driver error code that means the text given cannot be stored (PostgreSQL: NUL in text, 22021). */
  readonly unstorableText?: (code: string) => boolean;
  /** Whether a driver's error (TypeORM's `driverError`) is a unique-key violation: the row is there already. */
  readonly duplicateKey: (driverError: { readonly code?: unknown; readonly errno?: unknown }) => boolean;
}

/**
 * What a text the database refused answers (400 INVALID_REQUEST): the last
 * net under the request rules (IsPlainText, the NUL check of path and query
 * values), which name the field first.
 */
export const UNSTORABLE_TEXT_HINT = 'text must not contain NUL (U+0000)';

/** Node's own socket failures, which every network driver passes on as they are. */
export const SOCKET_FAILURES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** TypeORM's ConnectionIsNotSetError, from the drivers of the database servers. */
export const TYPEORM_NOT_CONNECTED = /database is not established/i;

/** How deep the chain of `driverError` / `cause` is followed (TypeORM wraps once, mysql2 and pg at most twice). */
const MAX_DEPTH = 3;

/** Whether `error`, or an error it wraps, is one of `faults`. */
export function isUnavailable(faults: DriverFaults, error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && faults.code(code)) return true;
  if (typeof message === 'string' && faults.messages.some((pattern) => pattern.test(message))) return true;
  return isUnavailable(faults, driverError, depth + 1) || isUnavailable(faults, cause, depth + 1);
}

/** Whether `error`, or an error it wraps, says the text given cannot be stored. */
function isUnstorableText(faults: DriverFaults, error: unknown, depth = 0): boolean {
  if (!faults.unstorableText || !error || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  const { code, driverError, cause } = error as { code?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && faults.unstorableText(code)) return true;
  return isUnstorableText(faults, driverError, depth + 1) || isUnstorableText(faults, cause, depth + 1);
}

/**
 * `error` as the domain sees it: DatabaseUnavailableError when it is one of
 * `faults`, InvalidRequestError when the database refused a text it was
 * given, otherwise unchanged.
 */
export function translateFault(faults: DriverFaults, error: unknown): unknown {
  if (isUnavailable(faults, error)) return new DatabaseUnavailableError(faults.retryAfterSeconds, { cause: error });
  return isUnstorableText(faults, error) ? new InvalidRequestError(UNSTORABLE_TEXT_HINT) : error;
}

/** DatabaseFaults of one database: `translateFault` over the faults its module states. */
export class DriverFaultTranslator extends DatabaseFaults {
  constructor(private readonly faults: DriverFaults) {
    super();
  }

  translate(error: unknown): unknown {
    return translateFault(this.faults, error);
  }
}
