/** The public body limit (CONTRACT 2); model file uploads have their own (streamed-upload.ts). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** The public body limit as a PAYLOAD_TOO_LARGE answer states it. */
export const BODY_LIMIT_HINT = `Request bodies are limited to ${BODY_LIMIT_BYTES / 1024} KiB`;

/** What an UNSUPPORTED_MEDIA_TYPE answer asks for. */
export const JSON_BODIES_ONLY = 'Send the body as application/json';
