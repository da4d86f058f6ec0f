/**
 * What a route may say about itself in its Fastify config (Nest's
 * `@RouteConfig(...)`), typed by Fastify's declaration merging.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route exists only to refuse its method (405 with `Allow`), and is not a route of its path. */
    readonly methodNotAllowed?: boolean;
    /** The route takes bodies up to this many bytes (Fastify's per-route `bodyLimit`), beyond the public limit. */
    readonly bodyLimit?: number;
  }
}

export {};
