import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import './route-config';
import sjson from 'secure-json-parse';
import { BODY_LIMIT_BYTES, JSON_BODIES_ONLY } from './body-limit';
import { HttpEdgeError } from './http-error';
import { JSON_TOO_DEEP, MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { acceptStreamedUploads } from './streamed-upload';

type RouteBodyLimit = Pick<FastifyContextConfig, 'bodyLimit'>;

/**
 * The route config of a route whose body may be up to `bytes` (POST /v1/analytics/batch), for `@RouteConfig`:
 * it becomes Fastify's own per-route `bodyLimit` as the route is registered (fastify-hooks.ts), which the
 * parsers below defer to.
 */
export function bodyLimitOf(bytes: number): RouteBodyLimit {
  return { bodyLimit: bytes };
}

/**
 * Bodies: JSON objects only. `application/json` (any parameters) is parsed
 * safely (no prototype poisoning), no deeper than MAX_JSON_DEPTH (checked on
 * the text, before parsing), and must be an object; an empty body counts
 * as no body. Any other media type with a body answers 415, after the size
 * check (413 wins). Requests without a body need no Content-Type.
 * (An unmatched request is answered 404/405 before its body is read, in
 * fastify-hooks.ts, so routing wins over every body check: CONTRACT 2, step 1.)
 * Registered through Fastify's content-type parsers, where Nest leaves body parsing.
 */
export function acceptJsonObjectBodies(instance: FastifyInstance): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(source, MAX_JSON_DEPTH))
      return done(new HttpEdgeError('INVALID_REQUEST', 'Invalid request', JSON_TOO_DEEP), undefined);
    let parsed: unknown;
    try {
      parsed = sjson.parse(source, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(new HttpEdgeError('INVALID_REQUEST', 'Invalid request', 'The body is not valid JSON'), undefined);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return done(new HttpEdgeError('INVALID_REQUEST', 'Invalid request', 'The body must be a JSON object'), undefined);
    }
    done(null, parsed);
  });
  // Model uploads stream (see StreamedUpload); elsewhere it is refused like any other non-JSON body.
  acceptStreamedUploads(instance, BODY_LIMIT_BYTES);
  instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (_request, _body, done) => {
    done(new HttpEdgeError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type', JSON_BODIES_ONLY), undefined);
  });
}
