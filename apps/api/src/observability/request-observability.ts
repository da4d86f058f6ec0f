import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { redactUrl } from './redaction';
import { type ServiceLogger, requestLineWriter } from './service-logger';
import { type ServiceMetrics, UNMATCHED_ROUTE } from './service-metrics';

/** An incoming X-Request-Id is kept when it is this sane: no spaces, quotes or control characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's `genReqId`: the caller's X-Request-Id when sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Called once an answer has left. */
export type RequestObserver = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * One JSON line per answered request and the request metrics, after the
 * answer has left (onResponse): request id, method, the URL as the caller sent
 * it with credentials redacted, the route pattern, status and duration. No
 * headers and no bodies are logged. `metrics` is null when metrics are off;
 * null when there is nothing to do (fastify-hooks.ts calls it from onResponse).
 */
export function requestObserver(logger: ServiceLogger, metrics: ServiceMetrics | null): RequestObserver | null {
  const logInfo = logger.isLevelEnabled('info');
  const logErrors = logger.isLevelEnabled('error');
  if (!logInfo && !logErrors && metrics === null) return null;
  const writeLine = requestLineWriter(logger);
  return (request, reply) => {
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
  };
}
