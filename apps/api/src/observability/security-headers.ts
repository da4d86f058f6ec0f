import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/** Where the browsable API documentation lives (the one HTML the service serves). */
export const DOCS_PATH = '/api/docs';

/**
 * Helmet's headers for a JSON API: no Content-Security-Policy (JSON is never
 * rendered), frames refused outright, and none of the headers that only
 * concern HTML documents in old or current browsers (DNS prefetching, IE8
 * downloads, origin-keyed agent clusters, the retired XSS auditor): each
 * header is bytes and work on every answer.
 */
const API_HELMET: FastifyHelmetOptions = {
  contentSecurityPolicy: false,
  frameguard: { action: 'deny' },
  dnsPrefetchControl: false,
  ieNoOpen: false,
  originAgentCluster: false,
  xssFilter: false,
};

/** Swagger UI is static files, one inline style block and inline style attributes; it fetches only its own origin. */
const DOCS_CSP = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // helmet's default would upgrade the page's requests to https, breaking the docs on a plain-HTTP port
    upgradeInsecureRequests: null,
  },
};

/**
 * The headers @fastify/helmet sets, computed once at start-up with the
 * plugin itself on a throwaway instance. The plugin re-runs helmet's whole
 * configuration on every request (measured: it halved a bare Fastify route's
 * throughput), while the header values never change: so they are captured
 * once and applied by one cheap hook (see addResponseHeaders).
 */
export function securityHeadersOf(): Promise<HeaderList> {
  return (apiHeaders ??= probeHelmet(API_HELMET));
}

/** The Content-Security-Policy of the documentation pages. */
export function docsContentSecurityPolicyOf(): Promise<string> {
  return (docsPolicy ??= probeHelmet({ ...API_HELMET, contentSecurityPolicy: DOCS_CSP }).then(
    (headers) => headers.find(([name]) => name === 'content-security-policy')?.[1] ?? "default-src 'self'",
  ));
}

let apiHeaders: Promise<HeaderList> | undefined;
let docsPolicy: Promise<string> | undefined;

async function probeHelmet(options: FastifyHelmetOptions): Promise<HeaderList> {
  const probe = Fastify();
  await probe.register(fastifyHelmet, options);
  probe.get('/', (_request, reply) => {
    void reply.send('');
  });
  const bare = Fastify();
  bare.get('/', (_request, reply) => {
    void reply.send('');
  });
  try {
    const [withHelmet, without] = await Promise.all([probe.inject('/'), bare.inject('/')]);
    return Object.entries(withHelmet.headers)
      .filter(([name]) => !(name in without.headers))
      .map(([name, value]) => [name, String(value)] as const)
      .sort(([a], [b]) => a.localeCompare(b));
  } finally {
    await Promise.all([probe.close(), bare.close()]);
  }
}

/**
 * Adds the documentation's Content-Security-Policy to the routes under
 * DOCS_PATH only, as route-level hooks: the API routes pay nothing for it.
 * Must be called before those routes are registered.
 */
export function protectDocsPages(instance: FastifyInstance, contentSecurityPolicy: string): void {
  const addPolicy = (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    reply.header('content-security-policy', contentSecurityPolicy);
    done();
  };
  instance.addHook('onRoute', (route) => {
    if (route.url !== DOCS_PATH && !route.url.startsWith(`${DOCS_PATH}/`)) return;
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [addPolicy] : ([...([] as unknown[]).concat(existing), addPolicy] as never);
  });
}
