import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** The admin API's paths: its answers hold keys, e-mails and usage that no cache may keep. */
export const ADMIN_PATH_PREFIX = '/admin/';

/**
 * `Cache-Control: no-store` on every answer of the routes under `prefix`,
 * set before anything runs (so a refused token's 401 carries it too), added
 * as a route-level hook, like the docs' policy: other routes pay nothing for
 * it. The one mechanism for the admin API: its controllers declare no
 * `@Header` of their own. Must be called before those routes are registered.
 */
export function noStoreUnder(instance: FastifyInstance, prefix: string): void {
  const noStore = (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    reply.header('cache-control', 'no-store');
    done();
  };
  instance.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [noStore] : ([...([] as unknown[]).concat(existing), noStore] as never);
  });
}
