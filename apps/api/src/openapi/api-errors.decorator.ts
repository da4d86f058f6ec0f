import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_STATUS, type ErrorEnvelope, type HttpErrorCode } from '../http/error-status.map';
import { ErrorEnvelopeResponse } from './error-envelope.response';

interface ErrorDoc {
  /** When the code is answered. */
  readonly when: string;
  /** A representative body. */
  readonly example: Omit<ErrorEnvelope, 'code'>;
}

/** What each code means and how its body reads (the texts are the service's own). */
const ERROR_DOCS: Readonly<Record<HttpErrorCode, ErrorDoc>> = {
  MISSING_KEY: {
    when: 'no key, `null`, or a string empty after trimming',
    example: { error: 'API key is required', message: 'Send the API key as documented for this endpoint' },
  },
  INVALID_FORMAT: {
    when: 'the key is not a string, or not `<prefix>_(live|test)_` followed by 48 hex digits (checked without the database)',
    example: { error: 'Invalid API key format' },
  },
  INVALID_REQUEST: {
    when: 'the body is not a JSON object, or a field has the wrong type or is out of range (`message` names it)',
    example: { error: 'Invalid request', message: 'duration_ms must be a number >= 0' },
  },
  MISSING_EVENT_TYPE: {
    when: '`event_type` absent, `null` or empty',
    example: { error: 'Event type is required', message: 'event_type must be one of inference, model_load, error' },
  },
  INVALID_EVENT_TYPE: {
    when: '`event_type` is not one of `inference`, `model_load`, `error`',
    example: { error: 'Invalid event type', message: 'event_type must be one of inference, model_load, error' },
  },
  INVALID_PARAMETER: {
    when: 'a query parameter has a value outside its allowed set',
    example: { error: 'Invalid parameter', message: 'type must be one of SvcLDA, SvcQDA, SvcProbit' },
  },
  UNAUTHORIZED: {
    when: '`Authorization: Bearer <ADMIN_TOKEN or operator token>` missing or wrong, a replaced token, or a disabled operator',
    example: { error: 'Unauthorized', message: 'Send Authorization: Bearer <admin token>' },
  },
  FORBIDDEN: {
    when: "a valid admin token whose operator's role lacks the route's permission; `message` names the role needed",
    example: { error: 'Forbidden', message: 'This needs the admin role or higher (permission keys.issue)' },
  },
  OPERATOR_NOT_FOUND: { when: 'no operator has that id', example: { error: 'Operator not found' } },
  LAST_OWNER: {
    when: 'the change would disable or demote the last enabled owner, and no ADMIN_TOKEN is set',
    example: { error: 'Last owner', message: 'The last enabled owner cannot be disabled or demoted; make another owner first' },
  },
  INVALID_KEY: { when: 'the key is well-formed but unknown, or revoked', example: { error: 'Invalid or inactive API key' } },
  KEY_EXPIRED: {
    when: 'the key is past its `expires_at`',
    example: { error: 'API key has expired', message: 'Request a new key from support' },
  },
  INSUFFICIENT_LICENSE: {
    when: "the model needs a higher tier than the key's",
    example: { error: 'Insufficient license', message: 'This model requires the research license or higher' },
  },
  KEY_NOT_FOUND: { when: 'no such key, or (revoke) already revoked', example: { error: 'API key not found or already revoked' } },
  USER_NOT_FOUND: { when: '`user_id` names no user', example: { error: 'User not found' } },
  MODEL_NOT_FOUND: { when: "unknown, not yet published, or another owner's custom model", example: { error: 'Model not found' } },
  NOT_FOUND: { when: 'no such path (or no such stored file)', example: { error: 'Not found', message: 'No such endpoint' } },
  METHOD_NOT_ALLOWED: {
    when: 'another method on this path; the `Allow` header lists the methods',
    example: { error: 'Method not allowed', message: 'Allowed methods: GET, POST' },
  },
  KEY_REVOKED: { when: 'the key is revoked', example: { error: 'API key is revoked', message: 'A revoked key is permanently inactive' } },
  KEY_ROTATED: {
    when: 'the key was already rotated (it still works until its grace ends, but only its successor may be rotated)',
    example: {
      error: 'API key was already rotated',
      message: 'Use the key the rotation returned; this one works only until its grace period ends',
    },
  },
  MODEL_EXISTS: {
    when: 'a model of that name exists',
    example: { error: 'Model already exists', message: 'A model named p300_binary_v1 is already registered; replace it instead' },
  },
  PAYLOAD_TOO_LARGE: {
    when: 'the body is larger than 64 KiB (model files: 1 GiB)',
    example: { error: 'Payload too large', message: 'Request bodies are limited to 64 KiB' },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: 'a body that is not `application/json`',
    example: { error: 'Unsupported media type', message: 'Send the body as application/json' },
  },
  QUOTA_EXCEEDED: {
    when: 'the monthly quota is used up; `Retry-After` counts the seconds to `resets_at`',
    example: { error: 'Monthly quota exceeded', message: 'Monthly quota used up; it resets at 2026-12-01T00:00:00Z' },
  },
  RATE_LIMIT_EXCEEDED: {
    when: 'too many requests in the window (or too many failed key checks from the address); `Retry-After` in seconds',
    example: { error: 'Too many requests', message: 'Rate limit exceeded; retry in 42 seconds' },
  },
  SERVER_ERROR: {
    when: 'an unexpected failure (logged with the request id, never detailed here)',
    example: { error: 'Internal server error' },
  },
  UPSTREAM_ERROR: {
    when: 'GitHub could not be reached, timed out or refused to mint a token',
    example: { error: 'Upstream service unavailable', message: 'Could not obtain a token from the code host; try again later' },
  },
  NOT_CONFIGURED: {
    when: 'no installer token is set up on the server',
    example: {
      error: 'Installer token is not configured on the server',
      message: 'The installer token is not available; please contact support',
    },
  },
  LINK_EXPIRED: {
    when: 'a correctly signed model file link past its `expires` (links live MODEL_URL_TTL_SECONDS); ask the download endpoint for a fresh one',
    example: { error: 'Link expired', message: 'Ask GET /v1/models/{name}/download for a fresh link' },
  },
  LINK_INVALID: {
    when: 'a model file link without `expires` and `signature`, malformed, or altered (path, expiry or signature)',
    example: { error: 'Invalid link', message: 'Model file links are signed; ask GET /v1/models/{name}/download for one' },
  },
  RANGE_NOT_SATISFIABLE: {
    when: 'the `Range` starts past the end of the file; `Content-Range: bytes */<size>` gives the size',
    example: { error: 'Range not satisfiable', message: 'The file has 1024 bytes' },
  },
  SERVICE_UNAVAILABLE: {
    when: 'the database does not answer; `Retry-After` in seconds',
    example: { error: 'Service unavailable', message: 'The service cannot reach its database; retry shortly' },
  },
};

const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } as const;
const ALLOW = { description: 'The methods the path answers to', schema: { type: 'string' } } as const;

/** Documents each code's answer: grouped by status, the envelope schema with the codes listed, one example per code. */
export function ApiErrors(...codes: HttpErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, HttpErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const decorators = [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, group]) => {
      const headers: Record<string, typeof RETRY_AFTER | typeof ALLOW> = {};
      if (group.some((code) => ['RATE_LIMIT_EXCEEDED', 'QUOTA_EXCEEDED', 'SERVICE_UNAVAILABLE'].includes(code)))
        headers['Retry-After'] = RETRY_AFTER;
      if (group.includes('METHOD_NOT_ALLOWED')) headers.Allow = ALLOW;
      return ApiResponse({
        status,
        description: group.map((code) => `\`${code}\`: ${ERROR_DOCS[code].when}`).join('. '),
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: getSchemaPath(ErrorEnvelopeResponse) },
                { type: 'object', properties: { code: { type: 'string', enum: group } } },
              ],
            },
            examples: Object.fromEntries(group.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
          },
        },
      });
    });
  return applyDecorators(ApiExtraModels(ErrorEnvelopeResponse), ...decorators);
}

/** One example body per code, for `components.examples` (the responses refer to them). */
export function errorExamples(): Record<string, { summary: string; value: ErrorEnvelope }> {
  return Object.fromEntries(
    (Object.keys(ERROR_DOCS) as HttpErrorCode[]).map((code) => [
      code,
      { summary: ERROR_DOCS[code].when, value: { ...ERROR_DOCS[code].example, code } },
    ]),
  );
}

/** Codes any route may answer: another method on its path, an unexpected failure, the database away. */
export const ALWAYS: HttpErrorCode[] = ['METHOD_NOT_ALLOWED', 'SERVER_ERROR', 'SERVICE_UNAVAILABLE'];
/** Codes of a route that reads a JSON body. */
export const BODY: HttpErrorCode[] = ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
