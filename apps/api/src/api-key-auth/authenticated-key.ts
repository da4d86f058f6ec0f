import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ApiKey, KeyContext } from '@svc/domain';
import type { FastifyRequest } from 'fastify';

const authenticated = new WeakMap<FastifyRequest, KeyContext>();

/** Records the request's authenticated key (ApiKeyGuard). */
export function authenticatedAs(request: FastifyRequest, context: KeyContext): void {
  authenticated.set(request, context);
}

function contextOf(execution: ExecutionContext): KeyContext {
  const found = authenticated.get(execution.switchToHttp().getRequest<FastifyRequest>());
  if (!found) throw new Error('the authenticated key was read on a route without @ApiKeyAuth');
  return found;
}

/** The authenticated key of the request. */
export const CurrentKey = createParamDecorator((_data: unknown, execution: ExecutionContext): ApiKey => contextOf(execution).key);

/** The authenticated key with its user and its usage this period (the one read authentication made). */
export const CurrentKeyContext = createParamDecorator((_data: unknown, execution: ExecutionContext): KeyContext => contextOf(execution));
