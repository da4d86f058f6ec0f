import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateApiKey, DeviceGate } from '@svc/application';
import { ApiKey, KeyContext } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { authenticatedAs, namedDeviceAs } from './authenticated-key';
import { API_KEY_ROUTE, ApiKeyRoute, namedDeviceOf } from './key-sources';
import { PresentedKeys } from './presented-keys';

/**
 * Authenticates the key of a route declared with `@ApiKeyAuth`: the checks
 * of CONTRACT 2 in order (missing, malformed, unknown or revoked, expired;
 * CONTRACT 5's for revocation), through the brute-force limiter, in one read
 * (the key, or with its user and usage where the route asks), and keeps what
 * it found for `@CurrentKey()` / `@CurrentKeyContext()`. Then, on routes where a call may
 * name its device (CONTRACT 23), DeviceGate judges the device it named, kept for `@CurrentDevice()`.
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
    private readonly devices: DeviceGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routeOf(context);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const credential = this.presented.of(request, route.sources);
    const check = (): Promise<ApiKey | KeyContext> =>
      route.withContext ? this.authenticate.withContext(credential, route.purpose) : this.authenticate.execute(credential, route.purpose);
    const found = await this.failures.watch(request.ip, check);
    authenticatedAs(request, found);
    if (route.namesDevice) {
      const device = await this.devices.check(found instanceof ApiKey ? found : found.key, namedDeviceOf(request));
      if (device !== null) namedDeviceAs(request, device);
    }
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
