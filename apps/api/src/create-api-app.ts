import { type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { type AppConfig, type TrustProxy } from '@svc/config';
import { type InfrastructureOverrides } from '@svc/infrastructure';
import { type ApiFeatures, ApiModule } from './api.module';
import { AdminApiPresence } from './admin-auth/admin-api-presence';
import { serveConsole } from './console/serve-console';
import { REASON_PHRASE, errorEnvelope } from './http/error-envelope';
import { BODY_LIMIT_BYTES } from './http/body-limit';
import { acceptJsonObjectBodies } from './http/request-body';
import { rewriteLegacyUrl } from './http/legacy-routes';
import { RouteTable } from './http/route-table';
import { requestIdOf, requestObserver } from './observability/request-observability';
import { apiSecurityHeaders, docsPagesPolicy } from './observability/security-headers';
import { type LogDestination, PinoNestLogger, createServiceLogger } from './observability/service-logger';
import { ServiceMetrics } from './observability/service-metrics';
import { buildOpenApiDocument, serveOpenApiDocument } from './openapi/openapi';
import { registerFastifyHooks } from './fastify-hooks';

export interface ApiAppOptions extends InfrastructureOverrides {
  /**
   * Nest's own log lines go to this LoggerService instead of the JSON log
   * (request lines still go to the JSON log); `false` silences every line.
   */
  readonly logger?: LoggerService | false;
  /** Where the JSON log lines go: stdout, asynchronously, by default; tests pass a capturing stream. */
  readonly logDestination?: LogDestination;
  /** Feature modules beyond the service's own (docs/EXTENDING.md), mounted like them. */
  readonly features?: ApiFeatures;
}

/**
 * Builds the HTTP application: the only place that sets the adapter, body
 * parsing and the error envelope. `main.ts` (which owns signals) and the tests both
 * call it, so they cannot drift apart. Returns an initialised app (migrations applied).
 */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<NestFastifyApplication> {
  const log = createServiceLogger(options.logger === false ? 'silent' : config.logLevel, options.logDestination);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustedProxies(config.http.trustProxy),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    rewriteUrl: config.http.legacyRoutes ? (request: IncomingMessage) => rewriteLegacyUrl(request.url ?? '/') : undefined,
    genReqId: requestIdOf,
    frameworkErrors: (_error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      void reply
        .status(400)
        .header('x-request-id', request.id)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(errorEnvelope(REASON_PHRASE[400], 'INVALID_REQUEST', 'The request URL is malformed')));
    },
    clientErrorHandler: (_error, socket) => {
      if (socket.writable) {
        const body = JSON.stringify(errorEnvelope(REASON_PHRASE[400], 'INVALID_REQUEST', 'Malformed HTTP request'));
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
    },
  });
  const routes = new RouteTable();
  acceptJsonObjectBodies(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config, routes, options, options.features), adapter, {
    logger: options.logger ?? new PinoNestLogger(log),
    abortOnError: false,
    bodyParser: false,
  });
  const adminApi = app.get(AdminApiPresence, { strict: false });
  registerFastifyHooks(adapter.getInstance(), {
    routes,
    securityHeaders: apiSecurityHeaders(),
    docsPolicy: docsPagesPolicy(),
    adminApi,
    observe: requestObserver(log, config.metrics.enabled ? app.get(ServiceMetrics) : null),
  });
  serveOpenApiDocument(adapter.getInstance(), () => buildOpenApiDocument(app));
  if (config.console.enabled) serveConsole(adapter.getInstance(), config.console.dir, () => adminApi.exists());
  await app.init();
  return app;
}

/**
 * TRUST_PROXY in Fastify's terms: false, or the proxies' addresses (a copy, the
 * config is frozen; never `true`: loadConfig refuses it). A hop count becomes
 * Fastify's trust function `hop < count`, the meaning TRUST_PROXY documents
 * (the rightmost `count` entries were appended by proxies): Fastify itself
 * refuses a number, since a count trusts a direct client's forged entries
 * (docs/OPERATIONS.md section 1 warns of that).
 */
function trustedProxies(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'object' ? [...trust] : trust;
}
