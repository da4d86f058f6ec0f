import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { InstallerNotConfiguredError, UpstreamError } from '@svc/application';
import {
  DeviceLimitReachedError,
  DeviceNotFoundError,
  DeviceNotActivatedError,
  DeviceRequiredError,
  AdminUnauthorizedError,
  BillingPeriod,
  DatabaseUnavailableError,
  DomainError,
  EVENT_TYPES,
  ForbiddenError,
  InsufficientLicenseError,
  InvalidEventTypeError,
  InvalidFormatError,
  InvalidKeyError,
  InvalidRequestError,
  KeyExpiredError,
  KeyNotFoundError,
  KeyRevokedError,
  KeyRotatedError,
  LastOwnerError,
  LinkExpiredError,
  LinkInvalidError,
  MissingEventTypeError,
  MissingKeyError,
  IdempotencyKeyReusedError,
  ModelExistsError,
  ModelNotFoundError,
  OperatorNotFoundError,
  WebhookNotFoundError,
  DeliveryNotFoundError,
  QuotaExceededError,
  RangeNotSatisfiableError,
  UserNotFoundError,
  readModelFilter,
} from '@svc/domain';
import { BODY_LIMIT_BYTES, BODY_LIMIT_HINT, JSON_BODIES_ONLY } from '../http/body-limit';
import { MAX_JSON_DEPTH } from '../http/json-depth';
import { NO_SUCH_ENDPOINT, REASON_PHRASE, allowedMethodsHint, domainErrorEnvelope, errorEnvelope } from '../http/error-envelope';
import { ERROR_STATUS, type HttpErrorCode } from '../http/error-status.map';
import { HttpEdgeError } from '../http/http-error';
import { MODEL_UPLOAD_LIMIT_BYTES } from '../http/streamed-upload';
import { rateLimitExceeded } from '../http/rate-limit-exceeded';
import { ErrorEnvelopeResponse } from '../http/error-envelope.response';

type EdgeExample = Omit<ErrorEnvelopeResponse, 'code'>;

interface ErrorDoc {
  /** When the code is answered. */
  readonly when: string;
  /** A representative error: the domain error itself (its envelope is rendered as the filter renders it), or the edge's body. */
  readonly example: DomainError | HttpEdgeError | EdgeExample;
}

/** The error `run` throws (an example made by the rule that makes the real ones). */
function thrownBy(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
  }
  throw new Error('the example rule threw no domain error');
}

const EXAMPLE_MONTH = new Date('2026-11-15T00:00:00Z');

/** What each code means and how its body reads: domain errors' texts are theirs, never copied here. */
const ERROR_DOCS: Readonly<Record<HttpErrorCode, ErrorDoc>> = {
  MISSING_KEY: { when: 'no key, `null`, or a string empty after trimming', example: new MissingKeyError() },
  INVALID_FORMAT: {
    when: 'the key is not a string, or not `<prefix>_(live|test)_` followed by 48 hex digits (checked without the database)',
    example: new InvalidFormatError(),
  },
  INVALID_REQUEST: {
    when:
      `the body is not a JSON object, is nested deeper than ${MAX_JSON_DEPTH} levels (the body itself is level 1), or a field ` +
      'has the wrong type or is out of range, or a text field holds a control or bidirectional formatting character, or a ' +
      'path parameter holds NUL (`message` names it)',
    example: new InvalidRequestError('duration_ms must be a number >= 0'),
  },
  MISSING_EVENT_TYPE: { when: '`event_type` absent, `null` or empty', example: new MissingEventTypeError() },
  INVALID_EVENT_TYPE: {
    when: `\`event_type\` is not one of ${EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}`,
    example: new InvalidEventTypeError(),
  },
  INVALID_PARAMETER: {
    when: 'a query parameter has a value outside its allowed set',
    example: thrownBy(() => readModelFilter({ type: 'SvcSVM' })),
  },
  UNAUTHORIZED: {
    when: '`Authorization: Bearer <ADMIN_TOKEN or operator token>` missing or wrong, a replaced token, or a disabled operator',
    example: new AdminUnauthorizedError(),
  },
  FORBIDDEN: {
    when: "a valid admin token whose operator's role lacks the route's permission; `message` names the role needed",
    example: new ForbiddenError('keys.issue'),
  },
  OPERATOR_NOT_FOUND: { when: 'no operator has that id', example: new OperatorNotFoundError() },
  WEBHOOK_NOT_FOUND: { when: 'no webhook endpoint has that id', example: new WebhookNotFoundError() },
  DELIVERY_NOT_FOUND: { when: 'the endpoint has no delivery with that id', example: new DeliveryNotFoundError() },
  DEVICE_NOT_FOUND: {
    when:
      'the license has no active device with that fingerprint (never activated, deactivated, or its lease lapsed); ' +
      "on the admin routes: the key's license has no device of that id",
    example: new DeviceNotFoundError(),
  },
  DEVICE_NOT_ACTIVATED: {
    when: "the call named a device (`X-Device-Fingerprint`, or the body's `fingerprint`) that is not active on the license",
    example: new DeviceNotActivatedError(),
  },
  DEVICE_REQUIRED: {
    when: "the key's tier requires a device (`require_device`) and the call named none",
    example: new DeviceRequiredError(),
  },
  DEVICE_LIMIT_REACHED: {
    when: 'every seat of the license is held (`max_devices` and `active` say how many); deactivate a device first',
    example: new DeviceLimitReachedError(3, 3),
  },
  LAST_OWNER: {
    when: 'the change would disable or demote the last enabled owner, and no ADMIN_TOKEN is set',
    example: new LastOwnerError(),
  },
  INVALID_KEY: { when: 'the key is well-formed but unknown, or revoked', example: new InvalidKeyError() },
  KEY_EXPIRED: { when: 'the key is past its `expires_at`', example: new KeyExpiredError() },
  INSUFFICIENT_LICENSE: { when: "the model needs a higher tier than the key's", example: new InsufficientLicenseError('research') },
  KEY_NOT_FOUND: { when: 'no such key, or (revoke) already revoked', example: new KeyNotFoundError() },
  USER_NOT_FOUND: { when: '`user_id` names no user', example: new UserNotFoundError() },
  MODEL_NOT_FOUND: { when: "unknown, not yet published, or another owner's custom model", example: new ModelNotFoundError() },
  NOT_FOUND: { when: 'no such path (or no such stored file)', example: { error: REASON_PHRASE[404], message: NO_SUCH_ENDPOINT } },
  METHOD_NOT_ALLOWED: {
    when: 'another method on this path; the `Allow` header lists the methods',
    example: { error: REASON_PHRASE[405], message: allowedMethodsHint(['GET', 'POST']) },
  },
  KEY_REVOKED: { when: 'the key is revoked', example: new KeyRevokedError() },
  KEY_ROTATED: {
    when: 'the key was already rotated (it still works until its grace ends, but only its successor may be rotated)',
    example: new KeyRotatedError(),
  },
  MODEL_EXISTS: { when: 'a model of that name exists', example: new ModelExistsError('p300_binary_v1') },
  IDEMPOTENCY_KEY_REUSED: {
    when: 'the idempotency key was sent before with an event whose fields differ',
    example: new IdempotencyKeyReusedError(),
  },
  PAYLOAD_TOO_LARGE: {
    when: `the body is larger than ${BODY_LIMIT_BYTES / 1024} KiB (model files: ${MODEL_UPLOAD_LIMIT_BYTES / 1024 ** 3} GiB)`,
    example: { error: REASON_PHRASE[413], message: BODY_LIMIT_HINT },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: 'a body that is not `application/json`',
    example: { error: REASON_PHRASE[415], message: JSON_BODIES_ONLY },
  },
  QUOTA_EXCEEDED: {
    when: 'the monthly quota is used up; `Retry-After` counts the seconds to `resets_at`',
    example: new QuotaExceededError(BillingPeriod.containing(EXAMPLE_MONTH), EXAMPLE_MONTH),
  },
  RATE_LIMIT_EXCEEDED: {
    when: 'too many requests in the window (or too many failed key checks from the address); `Retry-After` in seconds',
    example: rateLimitExceeded(42),
  },
  SERVER_ERROR: {
    when: 'an unexpected failure (logged with the request id, never detailed here)',
    example: { error: REASON_PHRASE[500] },
  },
  UPSTREAM_ERROR: { when: 'GitHub could not be reached, timed out or refused to mint a token', example: new UpstreamError() },
  NOT_CONFIGURED: { when: 'no installer token is set up on the server', example: new InstallerNotConfiguredError() },
  LINK_EXPIRED: {
    when: 'a correctly signed model file link past its `expires` (links live MODEL_URL_TTL_SECONDS); ask the download endpoint for a fresh one',
    example: new LinkExpiredError(),
  },
  LINK_INVALID: {
    when: 'a model file link without `expires` and `signature`, malformed, or altered (path, expiry or signature)',
    example: new LinkInvalidError(),
  },
  RANGE_NOT_SATISFIABLE: {
    when: 'the `Range` starts past the end of the file; `Content-Range: bytes */<size>` gives the size',
    example: new RangeNotSatisfiableError(1024),
  },
  SERVICE_UNAVAILABLE: {
    when: 'the database does not answer (downloads and uploads: nor the model store); `Retry-After` in seconds',
    example: new DatabaseUnavailableError(2, { cause: undefined }),
  },
};

/** The body an example answers with, rendered as the filter renders a real one. */
function envelopeOf(code: HttpErrorCode, example: ErrorDoc['example']): ErrorEnvelopeResponse {
  if (example instanceof DomainError || example instanceof HttpEdgeError) {
    if (example.code !== code) throw new Error(`the example of ${code} is a ${example.code}`);
    return example instanceof DomainError ? domainErrorEnvelope(example) : errorEnvelope(example.description, code, example.hint);
  }
  return errorEnvelope(example.error, code, example.message);
}

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
export function errorExamples(): Record<string, { summary: string; value: ErrorEnvelopeResponse }> {
  return Object.fromEntries(
    (Object.keys(ERROR_DOCS) as HttpErrorCode[]).map((code) => [
      code,
      { summary: ERROR_DOCS[code].when, value: envelopeOf(code, ERROR_DOCS[code].example) },
    ]),
  );
}

/** Codes any route may answer: another method on its path, an unexpected failure, the database away. */
export const ALWAYS: HttpErrorCode[] = ['METHOD_NOT_ALLOWED', 'SERVER_ERROR', 'SERVICE_UNAVAILABLE'];
/** Codes of a route that reads a JSON body. */
export const BODY: HttpErrorCode[] = ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** Codes of a route with a path parameter (one holding NUL is refused, naming it). */
export const PATH: HttpErrorCode[] = ['INVALID_REQUEST'];
