import { HttpEdgeError } from './http-error';

/** 429 RATE_LIMIT_EXCEEDED with `Retry-After` in whole seconds, at least 1 (CONTRACT 8). */
export function rateLimitExceeded(retryAfterSeconds: number): HttpEdgeError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpEdgeError('RATE_LIMIT_EXCEEDED', 'Too many requests', `Rate limit exceeded; retry in ${seconds} seconds`, {
    'retry-after': String(seconds),
  });
}
