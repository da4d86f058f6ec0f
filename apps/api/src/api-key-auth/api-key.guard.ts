import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateApiKey } from '@svc/application';
import { ApiKey, KeyContext } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { authenticatedAs } from './authenticated-key';
import { API_KEY_ROUTE, ApiKeyRoute } from './key-sources';
import { PresentedKeys } from './presented-keys';

/**
 * Authenticates the key of a route declared with `@ApiKeyAuth`: the checks
 * of CONTRACT 2 in order (missing, malformed, unknown or revoked, expired;
 * CONTRACT 5's for revocation), through the brute-force limiter, in one read
 * (the key, or with its user and usage where the route asks), and keeps what
 * it found for `@CurrentKey()` / `@CurrentKeyContext()`.
 * A route's declaration is read once per handler.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly routes = new WeakMap<object, ApiKeyRoute>();

  constructor(
    private readonly reflector: Reflector,
    private readonly presented: PresentedKeys,
    private readonly authenticate: AuthenticateApiKey,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routeOf(context);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const credential = this.presented.of(request, route.sources);
    const check = (): Promise<ApiKey | KeyContext> =>
      route.withContext ? this.authenticate.withContext(credential, route.purpose) : this.authenticate.execute(credential, route.purpose);
    authenticatedAs(request, await this.failures.watch(request.ip, check));
    return true;
  }

  private routeOf(context: ExecutionContext): ApiKeyRoute {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (route === undefined) {
      route = this.reflector.getAllAndOverride<ApiKeyRoute | undefined>(API_KEY_ROUTE, [handler, context.getClass()]);
      if (route === undefined) throw new Error(`${context.getClass().name}.${handler.name} uses ApiKeyGuard without @ApiKeyAuth`);
      this.routes.set(handler, route);
    }
    return route;
  }
}
