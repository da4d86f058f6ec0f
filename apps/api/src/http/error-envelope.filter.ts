import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import { DatabaseFaults } from '@svc/application';
import { DatabaseUnavailableError, DomainError, ModelStoreUnavailableError } from '@svc/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceMetrics, UNMATCHED_ROUTE } from '../observability/service-metrics';
import { NO_SUCH_ENDPOINT, REASON_PHRASE, allowedMethodsHint, domainErrorEnvelope, errorEnvelope } from './error-envelope';
import { ErrorEnvelopeResponse } from './error-envelope.response';
import { ERROR_STATUS, HttpErrorCode } from './error-status.map';
import { HttpEdgeError } from './http-error';
import { BODY_LIMIT_HINT, JSON_BODIES_ONLY } from './body-limit';
import { RouteTable } from './route-table';

const CODE_BY_STATUS: Record<number, HttpErrorCode> = {
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SERVICE_UNAVAILABLE',
};

interface Rendered {
  readonly status: number;
  readonly body: ErrorEnvelopeResponse;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one place every failure thrown in a handler becomes the JSON envelope
 * `{ error, code, message? }` (STYLE 7; the shape is built by `errorEnvelope`).
 * A database driver's failure is first read as the domain's (DatabaseFaults:
 * 503 with `Retry-After` when the database cannot answer now). Unknown errors
 * are logged and answered 500 with nothing of their text.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelope');

  constructor(
    private readonly routes: RouteTable,
    private readonly metrics: ServiceMetrics,
    private readonly faults: DatabaseFaults,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const exception = this.faults.translate(thrown);
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    const rendered = this.render(exception, request);
    const route = request.routeOptions?.url ?? UNMATCHED_ROUTE;
    this.metrics.errorAnswered(rendered.body.code, route);
    if (exception instanceof DatabaseUnavailableError || exception instanceof ModelStoreUnavailableError) {
      const dependency = exception instanceof ModelStoreUnavailableError ? 'model store' : 'database';
      this.logger.warn({
        msg: `${request.method} ${route}: ${dependency} unavailable (${describeBriefly(exception.cause)})`,
        req_id: request.id,
      });
    } else if (rendered.status >= 500 && rendered.body.code === 'SERVER_ERROR') {
      this.logger.error({ msg: `${request.method} ${route} failed`, req_id: request.id }, (exception as Error)?.stack);
    }
    void reply
      .status(rendered.status)
      .headers({ 'cache-control': 'no-store', ...(rendered.headers ?? {}) })
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(rendered.body));
  }

  private render(exception: unknown, request: FastifyRequest): Rendered {
    if (exception instanceof DomainError) {
      const retryAfter = (exception as { retryAfterSeconds?: number }).retryAfterSeconds;
      return {
        status: ERROR_STATUS[exception.code],
        body: domainErrorEnvelope(exception),
        headers: retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
      };
    }
    if (exception instanceof HttpEdgeError) {
      return {
        status: ERROR_STATUS[exception.code],
        body: errorEnvelope(exception.description, exception.code, exception.hint),
        headers: exception.headers,
      };
    }
    if (exception instanceof NotFoundException) {
      const allowed = this.routes.allowedMethods(request.url);
      if (allowed.length > 0) {
        return {
          status: 405,
          body: errorEnvelope(REASON_PHRASE[405], 'METHOD_NOT_ALLOWED', allowedMethodsHint(allowed)),
          headers: { allow: allowed.join(', ') },
        };
      }
      return { status: 404, body: errorEnvelope(REASON_PHRASE[404], 'NOT_FOUND', NO_SUCH_ENDPOINT) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status >= 400 && status < 500) {
        const code = CODE_BY_STATUS[status] ?? 'INVALID_REQUEST';
        return { status: ERROR_STATUS[code], body: errorEnvelope(REASON_PHRASE[ERROR_STATUS[code]], code, publicHint(code)) };
      }
      if (status === 503) return { status, body: errorEnvelope(REASON_PHRASE[503], 'SERVICE_UNAVAILABLE') };
    }
    return { status: 500, body: errorEnvelope(REASON_PHRASE[500], 'SERVER_ERROR') };
  }
}

/** The error's class and code, never its message (which may quote parameters). */
function describeBriefly(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return [name, code].filter((part) => typeof part === 'string').join(' ') || 'unknown error';
}

function publicHint(code: HttpErrorCode): string | undefined {
  switch (code) {
    case 'PAYLOAD_TOO_LARGE':
      return BODY_LIMIT_HINT;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return JSON_BODIES_ONLY;
    case 'INVALID_REQUEST':
      return 'The request is malformed';
    default:
      return undefined;
  }
}
