import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateApiKey } from '@svc/application';
import { ApiKey } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { KEY_SOURCES, KeySource, KeySources, presentedKey } from './key-sources';

type KeyedRequest = FastifyRequest & { apiKey?: ApiKey };

export { KEY_SOURCES, KeySource, KeySources, presentedKey };

/**
 * Authenticates the key through the AuthenticateApiKey use case (missing,
 * malformed, unknown or revoked, expired, in that order) and attaches it to
 * the request for `@CurrentKey()`. A route's key sources are read once per handler.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly sourcesByHandler = new WeakMap<object, readonly KeySource[]>();

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateApiKey,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    let sources = this.sourcesByHandler.get(handler);
    if (!sources) {
      sources = this.reflector.getAllAndOverride<KeySource[]>(KEY_SOURCES, [handler, context.getClass()]) ?? [];
      this.sourcesByHandler.set(handler, sources);
    }
    const request = context.switchToHttp().getRequest<KeyedRequest>();
    const presented = presentedKey(request, sources);
    request.apiKey = await this.failures.watch(request.ip, () => this.authenticate.execute(presented));
    return true;
  }
}

/** The authenticated key of the request (set by ApiKeyGuard). */
export const CurrentKey = createParamDecorator((_data: unknown, context: ExecutionContext): ApiKey => {
  const key = context.switchToHttp().getRequest<KeyedRequest>().apiKey;
  if (!key) throw new Error('CurrentKey used on a route without ApiKeyGuard');
  return key;
});
