import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a Connect-style middleware calls when done: helmet passes nothing, or the Error it met. */
export type HeaderMiddlewareNext = (error?: unknown) => void;

/** A Connect-style middleware that sets headers on Node's response, as helmet's are. */
export type HeaderMiddleware = (request: IncomingMessage, response: ServerResponse, next: HeaderMiddlewareNext) => void;

/** Where the browsable API documentation lives (the one HTML the service serves). */
export const DOCS_PATH = '/api/docs';

/**
 * Helmet's headers for a JSON API: no Content-Security-Policy (JSON is never
 * rendered), frames refused outright, and none of the headers that only
 * concern HTML documents in old or current browsers (DNS prefetching, IE8
 * downloads, origin-keyed agent clusters, the retired XSS auditor): each
 * header is bytes and work on every answer.
 */
const API_HELMET: Readonly<HelmetOptions> = {
  contentSecurityPolicy: false,
  frameguard: { action: 'deny' },
  dnsPrefetchControl: false,
  ieNoOpen: false,
  originAgentCluster: false,
  xssFilter: false,
};

/** Swagger UI is static files, one inline style block and inline style attributes; it fetches only its own origin. */
const DOCS_CSP = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // helmet's default would upgrade the page's requests to https, breaking the docs on a plain-HTTP port
    upgradeInsecureRequests: null,
  },
};

/**
 * The service's security headers: helmet's own middleware, built once at
 * start-up (helmet works out its headers from the options when the
 * middleware is made) and run on Node's response, as helmet documents it
 * (fastify-hooks.ts runs it for every answer).
 * Not @fastify/helmet: its hook builds the middleware again from the options
 * on every request, which costs a bare Fastify route much of its throughput.
 */
export function apiSecurityHeaders(): HeaderMiddleware {
  return helmet(API_HELMET);
}

/** The documentation's Content-Security-Policy: helmet's middleware for that header alone, for the docs pages only. */
export function docsPagesPolicy(): HeaderMiddleware {
  return helmet.contentSecurityPolicy(DOCS_CSP);
}

/** Whether a route pattern is one of the documentation's pages (under DOCS_PATH). */
export function isDocsRoute(url: string): boolean {
  return url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`);
}
