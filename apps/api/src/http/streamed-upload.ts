import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { Readable, Transform, type TransformCallback, pipeline } from 'node:stream';
import { BODY_LIMIT_HINT, JSON_BODIES_ONLY } from './body-limit';
import { HttpEdgeError } from './http-error';

/** The largest model file the admin API takes (CONTRACT 12: larger than the public 64 KiB). */
export const MODEL_UPLOAD_LIMIT_BYTES = 1024 ** 3;

const STREAMED_UPLOAD = 'svcStreamedUpload';

/**
 * Marks a route whose `application/octet-stream` body is handed to the
 * handler as a stream (up to MODEL_UPLOAD_LIMIT_BYTES), never buffered.
 */
export const StreamedUpload = () => RouteConfig({ [STREAMED_UPLOAD]: true });

/** A readable body stream: what a StreamedUpload route receives as its body. */
export function isUploadStream(body: unknown): body is Readable {
  return body instanceof Readable;
}

type Done = (error: Error | null, body?: unknown) => void;

/** Registers the `application/octet-stream` parser. */
export function acceptStreamedUploads(instance: FastifyInstance, publicLimit: number): void {
  instance.addContentTypeParser('application/octet-stream', octetStreamParser(publicLimit));
}

/**
 * Whether the request is an upload answered before it was read to its end (a
 * 401, a MODEL_NOT_FOUND, a 413): its connection is then closed (fastify-hooks.ts),
 * so the unread bytes are not waited for, and a half-read connection never
 * lingers (nor holds up shutdown).
 */
export function answeredBeforeUploadEnded(request: FastifyRequest): boolean {
  return isStreamedRoute(request) && request.body !== undefined && !request.raw.complete;
}

function isStreamedRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[STREAMED_UPLOAD] === true;
}

/**
 * The `application/octet-stream` parser. On a StreamedUpload route, the body
 * streams through a byte counter (413 past the limit); anywhere else it is
 * judged like any other non-JSON body: 413 past 64 KiB, else 415.
 */
function octetStreamParser(publicLimit: number) {
  return (request: FastifyRequest, payload: IncomingMessage, done: Done): void => {
    const streamed = isStreamedRoute(request);
    const limit = streamed ? MODEL_UPLOAD_LIMIT_BYTES : publicLimit;
    if (Number(request.headers['content-length']) > limit) return done(tooLarge(streamed));
    if (!streamed) return refuseAfterReading(payload, limit, done);
    const counted = new ByteLimit(limit);
    pipeline(payload, counted, () => undefined);
    done(null, counted);
  };
}

function tooLarge(streamed: boolean): HttpEdgeError {
  return new HttpEdgeError(
    'PAYLOAD_TOO_LARGE',
    'Payload too large',
    streamed ? `Model files are limited to ${MODEL_UPLOAD_LIMIT_BYTES} bytes` : BODY_LIMIT_HINT,
  );
}

/** Reads (and drops) a non-JSON body to tell 413 from 415, as the buffering parsers do. */
function refuseAfterReading(payload: IncomingMessage, limit: number, done: Done): void {
  let received = 0;
  let settled = false;
  const settle = (error: Error): void => {
    if (settled) return;
    settled = true;
    done(error);
  };
  payload.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) settle(tooLarge(false));
  });
  payload.on('end', () => settle(new HttpEdgeError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type', JSON_BODIES_ONLY)));
  payload.on('error', settle);
  payload.resume();
}

/** Passes bytes through and fails with 413 once more than `limit` have passed. */
class ByteLimit extends Transform {
  private received = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) return callback(tooLarge(true));
    callback(null, chunk);
  }
}
