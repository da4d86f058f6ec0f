import { type INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { API_KEY_ROUTE } from '../../apps/api/src/api-key-auth/key-sources';

/** A route of the app's controllers: `GET v1/models/list`, with whether it carries `@ApiKeyAuth`. */
export interface DeclaredRoute {
  readonly route: string;
  readonly keyAuth: boolean;
  /** Registered only to refuse its method (405), like the installer's HEAD. */
  readonly refusesMethod: boolean;
}

function joined(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
}

/** Every route of every controller the app mounted, read from Nest's own metadata. */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        routes.push({
          route: `${method} ${joined(base, String(Reflect.getMetadata(PATH_METADATA, handler)))}`,
          keyAuth: Reflect.hasMetadata(API_KEY_ROUTE, handler) || Reflect.hasMetadata(API_KEY_ROUTE, controller),
          refusesMethod: Boolean(
            (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as { methodNotAllowed?: boolean } | undefined)?.methodNotAllowed,
          ),
        });
      }
    }
  }
  return routes;
}

/** The /v1 routes that take no key: the JWKS an SDK verifies licenses with before it holds one (CONTRACT 15). */
export const KEYLESS_ROUTES: readonly string[] = ['GET v1/license/jwks'];

/**
 * The versioned public API (`/v1/...`) takes a key on every route (SPEC 5.1),
 * so each must carry `@ApiKeyAuth`; `keyless` names the few that may not.
 */
export function keyRoutesWithoutKeyAuth(app: INestApplication, keyless: readonly string[] = KEYLESS_ROUTES): string[] {
  return declaredRoutes(app)
    .filter(
      ({ route, keyAuth, refusesMethod }) =>
        route.split(' ')[1].startsWith('v1/') && !keyAuth && !refusesMethod && !keyless.includes(route),
    )
    .map(({ route }) => route);
}
