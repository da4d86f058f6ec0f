import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateCounter, RateVerdict } from '@svc/application';
import { AppConfig, RateLimitedEndpoint } from '@svc/config';
import { ApiKeyFormat, SecretHasher } from '@svc/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KEY_SOURCES, KeySource, presentedKey } from './key-sources';
import { HttpEdgeError } from './http-error';

const RATE_LIMITED = 'svc:rate-limited';

/** Marks a route as counted against one SPEC 8 endpoint limit (aliases and sub-paths share it). */
export const RateLimited = (endpoint: RateLimitedEndpoint) => SetMetadata(RATE_LIMITED, endpoint);

export function rateLimitExceeded(verdict: RateVerdict): HttpEdgeError {
  const seconds = verdict.retryAfterSeconds;
  return new HttpEdgeError('RATE_LIMIT_EXCEEDED', 'Too many requests', `Rate limit exceeded; retry in ${seconds} seconds`, {
    'retry-after': String(seconds),
  });
}

/** What the guard needs to know of a route, read from its metadata once. */
interface RouteLimit {
  readonly endpoint: RateLimitedEndpoint;
  readonly limit: number;
  readonly sources: readonly KeySource[];
}

/**
 * Global guard, so it runs before any key check (CONTRACT 2, step 3). Counts
 * the request per key digest when a well-formed key is present, else per
 * client address, and announces the window on every response of the route,
 * errors included. Unmatched routes (404/405) and body errors never get here.
 * A route's endpoint, limit and key sources are read once per handler.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windowMs: number;
  private readonly routes = new WeakMap<object, RouteLimit | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly counter: RateCounter,
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly config: AppConfig,
  ) {
    this.windowMs = config.rateLimit.windowSeconds * 1000;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routeOf(context);
    if (!route) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const judged = this.format.judge(presentedKey(request, route.sources));
    const caller = judged.kind === 'well-formed' ? `k:${this.hasher.digest(judged.secret)}` : `a:${request.ip}`;
    const verdict = await this.counter.hit(`${route.endpoint}:${caller}`, route.limit, this.windowMs);
    void reply.headers({
      'x-ratelimit-limit': String(route.limit),
      'x-ratelimit-remaining': String(verdict.remaining),
      'x-ratelimit-reset': String(Math.ceil(verdict.resetAtMs / 1000)),
    });
    if (!verdict.allowed) throw rateLimitExceeded(verdict);
    return true;
  }

  private routeOf(context: ExecutionContext): RouteLimit | null {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (route === undefined) {
      const targets = [handler, context.getClass()];
      const endpoint = this.reflector.getAllAndOverride<RateLimitedEndpoint | undefined>(RATE_LIMITED, targets);
      route = endpoint
        ? {
            endpoint,
            limit: this.config.rateLimit.perEndpoint[endpoint],
            sources: this.reflector.getAllAndOverride<KeySource[]>(KEY_SOURCES, targets) ?? [],
          }
        : null;
      this.routes.set(handler, route);
    }
    return route;
  }
}
