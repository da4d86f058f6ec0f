import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateApiKey } from '@svc/application';
import { ApiKey } from '@svc/domain';
import type { FastifyRequest } from 'fastify';

/** Where an endpoint reads the key (CONTRACT 2); the first source present wins. */
export type KeySource = 'body' | 'header' | 'query';

const KEY_SOURCES = 'svc:key-sources';

/** Declares the key sources of a route or controller, in order of precedence. */
export const KeySources = (...sources: KeySource[]) => SetMetadata(KEY_SOURCES, sources);

type KeyedRequest = FastifyRequest & { apiKey?: ApiKey };

/** Reads the presented key from the first source that has one; `undefined` when none does. */
export function presentedKey(request: FastifyRequest, sources: readonly KeySource[]): unknown {
  for (const source of sources) {
    const value =
      source === 'header'
        ? request.headers['x-api-key']
        : source === 'query'
          ? (request.query as Record<string, unknown> | undefined)?.api_key
          : (request.body as Record<string, unknown> | undefined)?.api_key;
    if (value !== undefined) return value;
  }
  return undefined;
}

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
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const sources = this.reflector.getAllAndOverride<KeySource[]>(KEY_SOURCES, [context.getHandler(), context.getClass()]) ?? [];
    const request = context.switchToHttp().getRequest<KeyedRequest>();
    request.apiKey = await this.authenticate.execute(presentedKey(request, sources));
    return true;
  }
}

/** The authenticated key of the request (set by ApiKeyGuard). */
export const CurrentKey = createParamDecorator((_data: unknown, context: ExecutionContext): ApiKey => {
  const key = context.switchToHttp().getRequest<KeyedRequest>().apiKey;
  if (!key) throw new Error('CurrentKey used on a route without ApiKeyGuard');
  return key;
});
