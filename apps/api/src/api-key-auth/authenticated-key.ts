import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ApiKey, type KeyContext } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { RequestSlot } from '../http/request-slot';

/** What ApiKeyGuard found: the key, with its user and usage where the route asked for them. */
type Authenticated = ApiKey | KeyContext;

const authenticated = new RequestSlot<Authenticated>('authenticated key');

/** Records the request's authenticated key (ApiKeyGuard). */
export function authenticatedAs(request: FastifyRequest, found: Authenticated): void {
  authenticated.set(request, found);
}

function authenticatedOf(execution: ExecutionContext): Authenticated {
  const found = authenticated.get(execution.switchToHttp().getRequest<FastifyRequest>());
  if (!found) throw new Error('the authenticated key was read on a route without @ApiKeyAuth');
  return found;
}

const namedDevices = new RequestSlot<string>('named device');

/** Records the SHA-256 of the active device the request named (ApiKeyGuard, CONTRACT 23). */
export function namedDeviceAs(request: FastifyRequest, digest: string): void {
  namedDevices.set(request, digest);
}

/** The SHA-256 (hex) of the active device the call named, or null when it named none (CONTRACT 23). */
export const CurrentDevice = createParamDecorator(
  (_data: unknown, execution: ExecutionContext): string | null =>
    namedDevices.get(execution.switchToHttp().getRequest<FastifyRequest>()) ?? null,
);

/** The authenticated key of the request. */
export const CurrentKey = createParamDecorator((_data: unknown, execution: ExecutionContext): ApiKey => {
  const found = authenticatedOf(execution);
  return found instanceof ApiKey ? found : found.key;
});

/** The authenticated key with its user and its usage this period: on routes declared `@ApiKeyAuth({ withContext: true })`. */
export const CurrentKeyContext = createParamDecorator((_data: unknown, execution: ExecutionContext): KeyContext => {
  const found = authenticatedOf(execution);
  if (found instanceof ApiKey) throw new Error('@CurrentKeyContext() needs @ApiKeyAuth({ withContext: true }) on its route');
  return found;
});
