import { DeviceLimitReachedError, type DomainError } from '@svc/domain';
import { publicHintOf } from '@svc/presentation';
import { type ErrorEnvelopeResponse } from './error-envelope.response';
import { type HttpErrorCode } from './error-status.map';

/** The `error` text of an answer that has nothing more specific to say than its status. */
export const REASON_PHRASE: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

/** The `message` of a 404 for a path no route has. */
export const NO_SUCH_ENDPOINT = 'No such endpoint';

/** The `message` of a 405: the methods the path answers to. */
export function allowedMethodsHint(allowed: readonly string[]): string {
  return `Allowed methods: ${allowed.join(', ')}`;
}

/**
 * The body of every error answer (SPEC 7): `{ error, code, message? }`, in that
 * order, `message` left out when there is none. Every writer of an error answer
 * builds it here: the exception filter, the framework and client-error handlers,
 * and the metrics port.
 */
export function errorEnvelope(error: string, code: HttpErrorCode, message?: string): ErrorEnvelopeResponse {
  return message === undefined ? { error, code } : { error, code, message };
}

/** A domain error's envelope: its description, code, and the hint the edge words for it (`publicHintOf`). */
export function domainErrorEnvelope(error: DomainError): ErrorEnvelopeResponse {
  const envelope = errorEnvelope(error.description, error.code, publicHintOf(error));
  return error instanceof DeviceLimitReachedError ? { ...envelope, ...error.fields } : envelope;
}
