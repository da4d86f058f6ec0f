import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { RouteOptions } from 'fastify';
import './route-config';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The routes the service registered, so an unmatched request can be told
 * apart: an unknown path (404) or a known path with another method (405 + Allow).
 * A route marked `@RouteConfig({ methodNotAllowed: true })` exists only to refuse its method.
 */
export class RouteTable {
  private readonly router = FindMyWay();
  private readonly registered: Array<{ readonly method: string; readonly url: string }> = [];

  /** Learns a route as Fastify registers it (its onRoute hook, in fastify-hooks.ts). */
  add(route: RouteOptions): void {
    if (route.config?.methodNotAllowed) return;
    const methods = ([] as string[]).concat(route.method).filter((m) => METHODS.includes(m as HTTPMethod));
    for (const method of methods) {
      try {
        this.router.on(method as HTTPMethod, route.url, () => undefined);
        this.registered.push({ method, url: route.url });
      } catch {
        // the same route registered twice (e.g. an automatic HEAD): already known
      }
    }
  }

  /** Every route registered (method and URL pattern), in registration order. */
  list(): ReadonlyArray<{ readonly method: string; readonly url: string }> {
    return this.registered;
  }

  /** The methods the path answers to, or an empty list for an unknown path. */
  allowedMethods(path: string): string[] {
    const bare = path.split('?')[0];
    return METHODS.filter((method) => this.router.find(method, bare) !== null);
  }
}
