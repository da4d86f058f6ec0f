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

/**
 * `adapter` with every method's failures translated by `translateFault`, at
 * the port's boundary: a method that throws or rejects with one of the
 * driver's faults throws DatabaseUnavailableError instead, so nothing above
 * the adapters sees a driver's error. The adapter stays the prototype of the
 * result (its fields and `instanceof` hold); its methods run on the adapter
 * itself, so its own inner calls are not translated twice.
 */
export function translatingFaults<T extends object>(adapter: T, faults: DriverFaults): T {
  const translated = Object.create(adapter) as Record<PropertyKey, unknown>;
  for (const name of methodNames(adapter)) {
    const method = (adapter as Record<PropertyKey, unknown>)[name] as (...args: unknown[]) => unknown;
    translated[name] = (...args: unknown[]): unknown => {
      let result: unknown;
      try {
        result = method.apply(adapter, args);
      } catch (error) {
        throw translateFault(faults, error);
      }
      return result instanceof Promise
        ? result.catch((error: unknown) => {
            throw translateFault(faults, error);
          })
        : result;
    };
  }
  return translated as T;
}

/** The methods of `object`'s classes (constructor and Object's own excepted). */
function methodNames(object: object): Set<PropertyKey> {
  const names = new Set<PropertyKey>();
  for (
    let proto = Object.getPrototypeOf(object) as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== 'constructor' && typeof descriptor?.value === 'function') names.add(name);
    }
  }
  return names;
}
