import { BATCH_LIMITS } from '@svc/domain';

/** The public body limit (CONTRACT 2); a batch of events has its own (CONTRACT 22), model file uploads theirs (streamed-upload.ts). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** The public body limits as a PAYLOAD_TOO_LARGE answer states them. */
export const BODY_LIMIT_HINT =
  `Request bodies are limited to ${BODY_LIMIT_BYTES / 1024} KiB ` +
  `(${BATCH_LIMITS.bodyBytes / 1024 / 1024} MiB for POST /v1/analytics/batch)`;

/** What an UNSUPPORTED_MEDIA_TYPE answer asks for. */
export const JSON_BODIES_ONLY = 'Send the body as application/json';
