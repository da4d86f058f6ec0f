/** The headers of every answer of a rate-limited endpoint (SPEC 8, CONTRACT 8), for success responses. */
export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window (one minute)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window after this one', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window ends, in Unix seconds', schema: { type: 'integer' } },
} as const;
