import { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '@svc/config';
import { InfrastructureOverrides } from '@svc/infrastructure';
import { ApiModule } from './api.module';
import { BODY_LIMIT_BYTES, acceptJsonObjectBodies } from './http/request-body';
import { rewriteLegacyUrl } from './http/legacy-routes';
import { RouteTable } from './http/route-table';

export interface ApiAppOptions extends InfrastructureOverrides {
  /** Where Nest's own log lines go; a level-filtered console by default. */
  readonly logger?: LoggerService | false;
}

const NEST_LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
  silent: [],
};

/**
 * Builds the HTTP application: the only place that sets the adapter, body
 * parsing and the error envelope. `main.ts` (which owns signals) and the tests both
 * call it, so they cannot drift apart. Returns an initialised app (migrations applied).
 */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.http.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    rewriteUrl: config.http.legacyRoutes ? (request: IncomingMessage) => rewriteLegacyUrl(request.url ?? '/') : undefined,
    frameworkErrors: (_error: unknown, _request: unknown, reply: FastifyReply) => {
      void reply
        .status(400)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ error: 'Bad request', code: 'INVALID_REQUEST', message: 'The request URL is malformed' }));
    },
    clientErrorHandler: (_error, socket) => {
      if (socket.writable) {
        const body = JSON.stringify({ error: 'Bad request', code: 'INVALID_REQUEST', message: 'Malformed HTTP request' });
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
    },
  });
  closeConnectionsWhenClosing(adapter);
  const routes = RouteTable.watch(adapter.getInstance());
  acceptJsonObjectBodies(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config, routes, options), adapter, {
    logger: options.logger ?? NEST_LEVELS[config.logLevel],
    abortOnError: false,
    bodyParser: false,
  });
  await app.init();
  return app;
}

/**
 * Once shutdown begins, every response still being sent says
 * `Connection: close`, so keep-alive sockets end with the requests in flight
 * instead of holding the server open until their idle timeout.
 */
function closeConnectionsWhenClosing(adapter: FastifyAdapter): void {
  const instance = adapter.getInstance();
  let closing = false;
  instance.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  instance.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
