import { NotFoundException } from '@nestjs/common';
import './http/route-config';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { type AdminApiPresence } from './admin-auth/admin-api-presence';
import { NO_SUCH_ENDPOINT, REASON_PHRASE } from './http/error-envelope';
import { HttpEdgeError } from './http/http-error';
import { ADMIN_PATH_PREFIX } from './http/no-store';
import { type RouteTable } from './http/route-table';
import { answeredBeforeUploadEnded } from './http/streamed-upload';
import { type RequestObserver } from './observability/request-observability';
import { type HeaderMiddleware, type HeaderMiddlewareNext, isDocsRoute } from './observability/security-headers';

export interface FastifyHookParts {
  /** Learns every route as it is registered (404 against 405). */
  readonly routes: RouteTable;
  /** helmet's middleware for every answer, and the docs pages' Content-Security-Policy. */
  readonly securityHeaders: HeaderMiddleware;
  readonly docsPolicy: HeaderMiddleware;
  /** Whether the admin API exists (CONTRACT 21): its routes answer 404 while it does not. */
  readonly adminApi: AdminApiPresence;
  /** The request log line and metrics, once the answer has left; null when both are off. */
  readonly observe: RequestObserver | null;
}

/**
 * The service's one set of Fastify request hooks: what must hold for every
 * answer, including those Nest never routes or never sees. Nest's own places
 * run later or see less: guards, interceptors and pipes run only for a routed
 * request and after its body is parsed, and Nest's middleware (@fastify/middie)
 * is handed Node's bare request and response, without the matched route, the
 * reply's timing or a way to answer through the error filter. So:
 *
 * - onRequest, before the body is read: X-Request-Id and the security headers
 *   (also on a 404, a 413 or a malformed body's 400); an unmatched request
 *   answered 404/405 before its body is looked at (routing wins over every
 *   body check, CONTRACT 2); on the admin API's routes `Cache-Control: no-store`
 *   and, while that API does not exist, 404 whatever the body; on the docs
 *   pages their Content-Security-Policy.
 * - onSend: `Connection: close` once shutdown began, and after an answer given
 *   before a streamed upload was read to its end (its unread bytes are not
 *   waited for).
 * - onResponse: one request log line and the request metrics for every answer,
 *   and, once shutdown began, the socket of a response that started before it is ended.
 * - onRoute (registration, not requests): the route table, and a route's own body limit from its config.
 *
 * Call after the Nest application is created and before `app.init()` registers its routes.
 */
export function registerFastifyHooks(instance: FastifyInstance, parts: FastifyHookParts): void {
  const { routes, securityHeaders, docsPolicy, adminApi, observe } = parts;
  let closing = false;

  instance.addHook('onRoute', (route) => {
    // a route that takes a larger body (`@RouteConfig(bodyLimitOf(n))`) gets Fastify's own per-route limit
    if (route.config?.bodyLimit !== undefined) route.bodyLimit = route.config.bodyLimit;
    routes.add(route);
  });

  instance.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('x-request-id', request.id);
    securityHeaders(request.raw, reply.raw, (error?: unknown) => {
      if (error !== undefined && error !== null) return done(error as Error);
      if (request.is404) return done(new NotFoundException());
      const route = request.routeOptions.url ?? '';
      if (route.startsWith(ADMIN_PATH_PREFIX)) {
        reply.header('cache-control', 'no-store');
        adminApi.exists().then(
          (exists) => done(exists ? undefined : new HttpEdgeError('NOT_FOUND', REASON_PHRASE[404], NO_SUCH_ENDPOINT)),
          (failure: Error) => done(failure),
        );
        return;
      }
      if (isDocsRoute(route)) return docsPolicy(request.raw, reply.raw, done as HeaderMiddlewareNext);
      done();
    });
  });

  instance.addHook('onSend', (request, reply, payload, done) => {
    if (closing || answeredBeforeUploadEnded(request)) void reply.header('connection', 'close');
    done(null, payload);
  });

  instance.addHook('onResponse', (request, reply, done) => {
    observe?.(request, reply);
    if (closing) request.raw.socket?.end();
    done();
  });

  instance.addHook('preClose', (done) => {
    closing = true;
    done();
  });
}
