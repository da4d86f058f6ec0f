import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { redactUrl } from './redaction';
import { type HeaderMiddleware, type HeaderMiddlewareNext } from './security-headers';
import { type ServiceLogger, requestLineWriter } from './service-logger';
import { type ServiceMetrics, UNMATCHED_ROUTE } from './service-metrics';

/** An incoming X-Request-Id is kept when it is this sane: no spaces, quotes or control characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's `genReqId`: the caller's X-Request-Id when sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Headers every answer carries: X-Request-Id and the security headers
 * (helmet's middleware, run on Node's response). One synchronous hook.
 */
export function addResponseHeaders(instance: FastifyInstance, securityHeaders: HeaderMiddleware): void {
  instance.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('x-request-id', request.id);
    securityHeaders(request.raw, reply.raw, done as HeaderMiddlewareNext);
  });
}

/**
 * One JSON line per answered request and the request metrics, after the
 * answer has left (onResponse): request id, method, the URL as the caller sent
 * it with credentials redacted, the route pattern, status and duration. No
 * headers and no bodies are logged. `metrics` is null when metrics are off.
 */
export function observeRequests(instance: FastifyInstance, logger: ServiceLogger, metrics: ServiceMetrics | null): void {
  const logInfo = logger.isLevelEnabled('info');
  const logErrors = logger.isLevelEnabled('error');
  if (!logInfo && !logErrors && metrics === null) return;
  const writeLine = requestLineWriter(logger);
  instance.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const status = reply.statusCode;
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const elapsedMs = reply.elapsedTime;
    if (metrics !== null) metrics.observeRequest(request.method, route, status, elapsedMs / 1000);
    if (status >= 500 ? logErrors : logInfo) {
      writeLine(status >= 500 ? 'error' : 'info', {
        req_id: request.id,
        method: request.method,
        url: redactUrl(request.originalUrl),
        route,
        status,
        duration_ms: Math.round(elapsedMs * 100) / 100,
        ip: request.ip,
      });
    }
    done();
  });
}
