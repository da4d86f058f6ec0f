import { REDACTED, redactKeyShapedText } from '@svc/domain';

/**
 * What the logs must never hold (SPEC 5.7, CONTRACT 1 and 6): API keys,
 * the admin token and installer tokens. Request lines carry no headers and no
 * bodies at all; the URL is the one place a secret can ride along
 * (`?api_key=…` on GET models and installer, or a key pasted into a path).
 */

export { REDACTED };

/** Values of query parameters that carry credentials, whatever else the URL holds. */
const SECRET_PARAMETER = /([?&;](?:api[_-]?key|x-api-key|key|token|access_token|github_token|secret|password|authorization)=)[^&;#]*/gi;

/** The URL as logged: credential parameters and key-shaped text (the domain's rule) replaced. */
export function redactUrl(url: string): string {
  return redactKeyShapedText(url.replace(SECRET_PARAMETER, `$1${REDACTED}`));
}

/** Free text (an audit reason, a message) as logged: key-shaped text replaced. */
export const redactText = redactKeyShapedText;

/**
 * pino's `redact` paths: a safety net for any object a log call is handed
 * (request lines and audit events never include these fields to begin with).
 * No wildcards: a `*.field` path is matched by walking the logged object on
 * every line, where an exact path is a direct look-up.
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
