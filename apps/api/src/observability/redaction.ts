/**
 * What the logs must never hold (SPEC 5.7, CONTRACT 1 and 6): API keys,
 * the admin token and installer tokens. Request lines carry no headers and no
 * bodies at all; the URL is the one place a secret can ride along
 * (`?api_key=…` on GET models and installer, or a key pasted into a path).
 */

export const REDACTED = '[REDACTED]';

/** Values of query parameters that carry credentials, whatever else the URL holds. */
const SECRET_PARAMETER = /([?&;](?:api[_-]?key|x-api-key|key|token|access_token|github_token|secret|password|authorization)=)[^&;#]*/gi;

/**
 * Key-shaped text anywhere: `<prefix>_live_…` / `<prefix>_test_…` with a hex tail,
 * and any run of 32 or more hex digits (a key's secret part alone, an upper-cased
 * copy, a digest). Ids (`key_` + 24 characters) and model names stay readable.
 */
const KEY_SHAPED = /[A-Za-z0-9]+_(?:live|test)_[0-9A-Fa-f]{8,}|[0-9A-Fa-f]{32,}/gi;

/** The URL as logged: credential parameters and key-shaped text replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETER, `$1${REDACTED}`).replace(KEY_SHAPED, REDACTED);
}

/** Free text (an audit reason, a message) as logged: key-shaped text replaced. */
export function redactText(text: string): string {
  return text.replace(KEY_SHAPED, REDACTED);
}

/**
 * pino's `redact` paths: a safety net for any object a log call is handed
 * (request lines and audit events never include these fields to begin with).
 * No wildcards: a `*.field` path costs several microseconds on every line.
 */
export const REDACT_PATHS: readonly string[] = [
  'api_key',
  'github_token',
  'token',
  'authorization',
  '"x-api-key"',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.query.api_key',
  'req.body.api_key',
  'body.api_key',
  'query.api_key',
  'details.token',
];
