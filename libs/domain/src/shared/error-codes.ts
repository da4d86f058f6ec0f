/**
 * The closed set of error codes the domain and the use cases can raise.
 * Codes are public API (SPEC section 7, CONTRACT): add, never rename.
 */
export const DOMAIN_ERROR_CODES = [
  'MISSING_KEY',
  'INVALID_FORMAT',
  'INVALID_KEY',
  'KEY_EXPIRED',
  'KEY_NOT_FOUND',
  'KEY_REVOKED',
  'KEY_ROTATED',
  'QUOTA_EXCEEDED',
  'MISSING_EVENT_TYPE',
  'INVALID_EVENT_TYPE',
  'INVALID_PARAMETER',
  'INSUFFICIENT_LICENSE',
  'MODEL_NOT_FOUND',
  'MODEL_EXISTS',
  'INVALID_REQUEST',
  'USER_NOT_FOUND',
  'NOT_CONFIGURED',
  'UPSTREAM_ERROR',
  'SERVICE_UNAVAILABLE',
  'LINK_EXPIRED',
  'LINK_INVALID',
  'RANGE_NOT_SATISFIABLE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'OPERATOR_NOT_FOUND',
  'LAST_OWNER',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];
