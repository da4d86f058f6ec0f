import { type DomainErrorCode } from '@svc/domain';

/** Codes only the HTTP edge produces. */
export type TransportErrorCode =
  'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE' | 'RATE_LIMIT_EXCEEDED' | 'SERVER_ERROR';

export type HttpErrorCode = DomainErrorCode | TransportErrorCode;

/** Every code's HTTP status (SPEC 7, CONTRACT). Exhaustive: a new code without a status does not compile. */
export const ERROR_STATUS: Readonly<Record<HttpErrorCode, number>> = {
  MISSING_KEY: 400,
  INVALID_FORMAT: 400,
  INVALID_REQUEST: 400,
  MISSING_EVENT_TYPE: 400,
  INVALID_EVENT_TYPE: 400,
  INVALID_PARAMETER: 400,
  UNAUTHORIZED: 401,
  INVALID_KEY: 401,
  KEY_EXPIRED: 401,
  INSUFFICIENT_LICENSE: 403,
  FORBIDDEN: 403,
  LINK_EXPIRED: 403,
  LINK_INVALID: 403,
  KEY_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  MODEL_NOT_FOUND: 404,
  OPERATOR_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  KEY_REVOKED: 409,
  KEY_ROTATED: 409,
  MODEL_EXISTS: 409,
  LAST_OWNER: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  QUOTA_EXCEEDED: 429,
  RATE_LIMIT_EXCEEDED: 429,
  SERVER_ERROR: 500,
  UPSTREAM_ERROR: 502,
  NOT_CONFIGURED: 503,
  SERVICE_UNAVAILABLE: 503,
};

/** The envelope every error answers with (SPEC 7): never a stack, HTML or the key. */
export interface ErrorEnvelope {
  readonly error: string;
  readonly code: HttpErrorCode;
  readonly message?: string;
}
