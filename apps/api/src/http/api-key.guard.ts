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
 * the request for `@CurrentKey()`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateApiKey,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const sources = this.reflector.getAllAndOverride<KeySource[]>(KEY_SOURCES, [context.getHandler(), context.getClass()]) ?? [];
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
