import fc from 'fast-check';
import { ERROR_STATUS } from '../../apps/api/src/http/error-status.map';
import { JSON_TOO_DEEP, MAX_JSON_DEPTH } from '../../apps/api/src/http/json-depth';
import { RouteTable } from '../../apps/api/src/http/route-table';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { rawRequest } from '../harness/raw-http';

/**
 * Property-based robustness over real HTTP: whatever arrives, the service
 * answers a 2xx or the JSON error envelope with a known code, never a 5xx,
 * never HTML or a framework's own error shape, never a key it did not just issue.
 */
const KNOWN_CODES = new Set([
  'MISSING_KEY',
  'INVALID_FORMAT',
  'INVALID_REQUEST',
  'INVALID_KEY',
  'KEY_EXPIRED',
  'KEY_NOT_FOUND',
  'USER_NOT_FOUND',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'KEY_REVOKED',
  'KEY_ROTATED',
  'QUOTA_EXCEEDED',
]);
const NUM_RUNS = 150;
const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const PROPERTY_TIMEOUT_MS = 30_000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const FIXED_PATHS = [
  '/v1/auth/validate',
  '/v1/auth/refresh',
  '/v1/auth/revoke',
  '/v1/auth/rotate',
  '/auth/validate',
  '/api/health',
  '/admin/v1/keys',
  '/admin/v1/audit',
];

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

describe('fuzz: every route, any body, any media type', () => {
  let t: TestApp;
  /** Plaintext keys of the pool: none may ever come back in an answer. */
  const secrets: string[] = [];
  let keyIds: string[] = [];
  let userIds: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    const pool = [
      await t.issueKey({ licenseType: 'free' }),
      await t.issueKey({ licenseType: 'enterprise', environment: 'test' }),
      await t.issueKey({ licenseType: 'research', monthlyLimit: 0 }),
      await t.issueKey({ expiresAt: new Date(Date.now() - 1000) }),
      await t.issueKey(),
      await t.issueKey(),
    ];
    await t.post('/v1/auth/revoke', { api_key: pool[4].api_key });
    secrets.push(...pool.map((key) => key.api_key));
    keyIds = pool.map((key) => key.key_id);
    userIds = pool.map((key) => key.user_id);
  });
  afterAll(async () => {
    await t.close();
  });

  // ---- arbitraries -------------------------------------------------------

  const printable = (max: number) =>
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });

  const wellFormedKey = fc.stringMatching(/^svc_(live|test)_[0-9a-f]{48}$/);
  const apiKeyValue = (): fc.Arbitrary<unknown> =>
    fc.oneof(
      fc.constantFrom(...secrets),
      wellFormedKey,
      fc.constantFrom(...secrets).map((key) => key.toUpperCase()),
      fc.constantFrom(...secrets).chain((key) => fc.nat({ max: key.length }).map((cut) => key.slice(0, cut))),
      fc.constantFrom(...secrets).map((key) => ` ${key}\n`),
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(null, '', '   ', 0, true, [], {}),
    );

  /** RFC 3339 times with an offset, biased to the edges of the years 0000-9999 and of the offsets. */
  const offsetTime = fc
    .tuple(
      fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
      fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
      fc.constantFrom('', '.5', '.123456789'),
    )
    .map(([wallClock, offsetMinutes, fraction]) => {
      const sign = offsetMinutes < 0 ? '-' : '+';
      const abs = Math.abs(offsetMinutes);
      return `${wallClock.toISOString().slice(0, 19)}${fraction}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    });
  /** Nearly RFC 3339: impossible dates, hours, offsets. */
  const nearTime = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 24 }),
      fc.constantFrom('Z', 'z', '+24:00', '+99:99', ''),
    )
    .map(([y, mo, d, h, off]) => `${String(y).padStart(4, '0')}-${pad(mo)}-${pad(d)}T${pad(h)}:00:00${off}`);
  const rfc3339ish = fc.oneof(offsetTime, nearTime, printable(30), fc.jsonValue({ maxDepth: 1 }));

  const adminBody = (): fc.Arbitrary<Record<string, unknown>> =>
    fc.record(
      {
        email: fc.oneof(fc.emailAddress(), printable(40), fc.jsonValue({ maxDepth: 1 })),
        name: fc.oneof(printable(250), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
        organization: fc.oneof(printable(250), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
        user_id: fc.oneof(fc.constantFrom(...userIds), printable(50), fc.jsonValue({ maxDepth: 1 })),
        license_type: fc.oneof(
          fc.constantFrom('free', 'research', 'commercial', 'enterprise'),
          printable(12),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        environment: fc.oneof(fc.constantFrom('live', 'test'), printable(8), fc.jsonValue({ maxDepth: 1 })),
        expires_at: rfc3339ish,
        monthly_limit: fc.oneof(
          fc.constantFrom(null, 'tier', 0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER),
          fc.integer(),
          fc.double(),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        reason: fc.oneof(printable(50), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    );

  const keyBody = (): fc.Arbitrary<Record<string, unknown>> =>
    fc.record(
      { api_key: apiKeyValue(), reason: fc.oneof(printable(30), fc.jsonValue({ maxDepth: 1 })), extra: fc.jsonValue({ maxDepth: 2 }) },
      { requiredKeys: [] },
    );

  const randomPath = fc.oneof(
    fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
    fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }).map((parts) => `/${parts.map(encodeURIComponent).join('/')}`),
  );

  const keySegment = () =>
    fc.oneof(
      fc.constantFrom(...keyIds),
      fc.constantFrom(...secrets),
      fc.string({ maxLength: 60 }).map(encodeURIComponent),
      fc.webSegment(),
    );

  const path = (): fc.Arbitrary<string> =>
    fc.oneof(
      fc.constantFrom(...FIXED_PATHS),
      keySegment().map((id) => `/admin/v1/keys/${id}`),
      keySegment().map((id) => `/admin/v1/keys/${id}/revoke`),
      fc
        .array(
          fc.oneof(
            keySegment().map((id) => `key_id=${id}`),
            fc.webQueryParameters(),
          ),
          { maxLength: 3 },
        )
        .map((params) => `/admin/v1/audit?${params.join('&')}`),
      randomPath,
      fc.tuple(randomPath, fc.constantFrom(...secrets)).map(([p, key]) => `${p}?api_key=${key}`),
    );

  const jsonType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON',
    'application/json; charset=latin1',
    'application/json; foo="bar; baz"',
    'application/json;',
    'application/json; ; ;',
    'application/json ; charset=utf-8',
  );
  const oddType = fc.oneof(
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/jsonx', 'json', '*/*', ''),
    fc.constantFrom('application/*', 'multipart/form-data; boundary=--x', 'application/problem+json', 'text/json'),
    printable(40),
  );

  const authHeader = fc.option(
    fc.constantFrom(`Bearer ${TEST_ADMIN_TOKEN}`, `bearer ${TEST_ADMIN_TOKEN}`, 'Bearer wrong', 'Basic Zm9vOmJhcg==', 'Bearer', ''),
    { nil: undefined },
  );

  const headers = (contentType: fc.Arbitrary<string | undefined>) =>
    fc
      .record({
        authorization: authHeader,
        'content-type': contentType,
        'x-api-key': fc.option(fc.constantFrom(...secrets), { nil: undefined }),
      })
      .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

  // ---- the oracle ---------------------------------------------------------

  async function send(request: FuzzRequest): Promise<HttpAnswer> {
    return rawRequest(t.baseUrl, request.method, request.path, { headers: request.headers, body: request.body });
  }

  function judge(request: FuzzRequest, res: HttpAnswer): void {
    const seen = { request: describeRequest(request), status: res.status, text: res.text.slice(0, 500) };
    if (res.status >= 500) throw new Error(`5xx answer: ${JSON.stringify(seen)}`);
    for (const secret of secrets) {
      if (res.text.includes(secret)) throw new Error(`a pooled key came back: ${JSON.stringify(seen)}`);
    }
    if (res.status >= 200 && res.status < 300) return;
    const body = res.body as { error?: unknown; code?: unknown } | undefined;
    const okEnvelope =
      /^application\/json/.test(res.headers.get('content-type') ?? '') &&
      typeof body === 'object' &&
      body !== null &&
      typeof body.error === 'string' &&
      typeof body.code === 'string' &&
      KNOWN_CODES.has(body.code) &&
      !('statusCode' in body) &&
      !('stack' in body) &&
      !/<\s*(!doctype|html|head|body|pre)\b/i.test(res.text);
    if (!okEnvelope) throw new Error(`not the error envelope: ${JSON.stringify(seen)}`);
  }

  async function check(request: FuzzRequest): Promise<void> {
    judge(request, await send(request));
  }

  /**
   * Whatever an admin write accepted must read back intact: the key shows
   * (200, the same `expires_at`, still RFC 3339 to the second) and its holder
   * can use it (no 5xx), so no accepted value can poison a key.
   */
  async function readBack(write: FuzzRequest, written: HttpAnswer, knownSecret?: string): Promise<void> {
    const keyId: string = written.body.key_id;
    const secret: string | undefined = written.body.api_key ?? knownSecret ?? secrets[keyIds.indexOf(keyId)];
    const show: FuzzRequest = { method: 'GET', path: `/admin/v1/keys/${keyId}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const shown = await send(show);
    const seen = { write: describeRequest(write), written: written.text.slice(0, 400), shown: shown.text.slice(0, 400) };
    if (shown.status !== 200 || shown.body.expires_at !== written.body.expires_at || !ISO_SECOND.test(shown.body.expires_at)) {
      throw new Error(`an accepted write does not read back: ${JSON.stringify(seen)}`);
    }
    if (secret === undefined) return;
    const refresh: FuzzRequest = {
      method: 'POST',
      path: '/v1/auth/refresh',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: secret }),
    };
    const refreshed = await send(refresh);
    if (refreshed.status >= 500)
      throw new Error(`a key broken by an accepted write: ${JSON.stringify({ ...seen, refreshed: refreshed.text })}`);
    if (refreshed.status === 200 && refreshed.body.expires_at !== written.body.expires_at) {
      throw new Error(`refresh disagrees with the write: ${JSON.stringify({ ...seen, refreshed: refreshed.text })}`);
    }
  }

  // ---- properties ----------------------------------------------------------

  it(
    'arbitrary JSON values as bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...METHODS),
          path(),
          headers(jsonType),
          fc.jsonValue({ maxDepth: 4 }),
          async (method, p, h, value) => check({ method, path: p, headers: h, body: JSON.stringify(value) }),
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'objects with an api_key of any JSON type, near-miss keys and real ones',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...METHODS), path(), headers(jsonType), keyBody(), async (method, p, h, value) =>
          check({ method, path: p, headers: h, body: JSON.stringify(value) }),
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'admin-shaped bodies with any field values, mostly with the admin token',
    async () => {
      const adminPaths = fc.oneof(
        fc.constant('/admin/v1/keys'),
        fc.constantFrom(...keyIds).map((id) => `/admin/v1/keys/${id}`),
        fc.constantFrom(...keyIds).map((id) => `/admin/v1/keys/${id}/revoke`),
        path(),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('POST', 'PATCH', 'POST', 'PATCH', 'GET', 'PUT', 'DELETE'),
          adminPaths,
          fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
          adminBody(),
          async (method, p, withToken, value) => {
            const request: FuzzRequest = {
              method,
              path: p,
              headers: {
                'content-type': 'application/json',
                ...(withToken ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {}),
              },
              body: JSON.stringify(value),
            };
            const res = await send(request);
            judge(request, res);
            if (res.status >= 200 && res.status < 300 && typeof res.body?.key_id === 'string') await readBack(request, res);
          },
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'any expires_at the admin API accepts reads back intact and leaves the key usable; any other is a 400',
    async () => {
      const spare = await t.issueKey();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('POST', 'PATCH'),
          fc.oneof({ weight: 3, arbitrary: offsetTime }, { weight: 1, arbitrary: nearTime }),
          async (method, expiresAt) => {
            const request: FuzzRequest = {
              method,
              path: method === 'POST' ? '/admin/v1/keys' : `/admin/v1/keys/${spare.key_id}`,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
              body: JSON.stringify(
                method === 'POST' ? { email: 'fuzz@example.org', license_type: 'free', expires_at: expiresAt } : { expires_at: expiresAt },
              ),
            };
            const res = await send(request);
            judge(request, res);
            if (res.status === 200 || res.status === 201) {
              await readBack(request, res, spare.api_key);
            } else if (res.status !== 400 || res.body.code !== 'INVALID_REQUEST' || !String(res.body.message).includes('expires_at')) {
              throw new Error(
                `expected 2xx or 400 naming expires_at: ${JSON.stringify({ request: describeRequest(request), text: res.text })}`,
              );
            }
          },
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'odd content types, JSON with odd parameters, and no content type at all',
    async () => {
      const body = fc.oneof(
        keyBody().map((v) => JSON.stringify(v)),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        printable(200),
        fc.constant(''),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...METHODS),
          path(),
          headers(fc.option(fc.oneof(oddType, jsonType), { nil: undefined })),
          fc.option(body, { nil: undefined }),
          async (method, p, h, b) => check({ method, path: p, headers: h, body: b }),
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'raw bytes under any content type',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...METHODS),
          path(),
          headers(fc.option(fc.oneof(jsonType, oddType), { nil: undefined })),
          fc.uint8Array({ maxLength: 2048 }),
          async (method, p, h, bytes) => check({ method, path: p, headers: h, body: bytes }),
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'bodies around and beyond the 64 KiB limit',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...METHODS),
          path(),
          headers(fc.option(fc.oneof(jsonType, oddType), { nil: undefined })),
          fc.integer({ min: 64 * 1024 - 64, max: 64 * 1024 + 4096 }),
          fc.constantFrom(...secrets),
          async (method, p, h, size, key) => {
            const skeleton = JSON.stringify({ api_key: key, pad: '' });
            const body = JSON.stringify({ api_key: key, pad: 'x'.repeat(Math.max(0, size - skeleton.length)) });
            await check({ method, path: p, headers: h, body });
          },
        ),
        { numRuns: 40 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  // ---- deep nesting, on every route ----------------------------------------

  /** Methods whose bodies Fastify parses (GET and HEAD bodies are never read). */
  const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

  /**
   * Every route the service registered (its own table: controllers, the
   * console, the docs, metrics, model files), as a request path with sample
   * parameters, and the unversioned alias of each /v1 route. HEAD routes are
   * GET's own.
   */
  function everyRoute(): Array<{ method: string; path: string }> {
    const routes = t.app
      .get(RouteTable)
      .list()
      .filter((route) => route.method !== 'HEAD')
      .map((route) => ({ method: route.method, path: route.url.replace(/:[A-Za-z_]+/g, 'fuzz_param').replace(/\*/g, 'x') }));
    const aliases = routes.filter((route) => route.path.startsWith('/v1/')).map((route) => ({ ...route, path: route.path.slice(3) }));
    return [...routes, ...aliases];
  }

  /** JSON text nested `depth` levels (arrays, objects or both, alternating), around a scalar. */
  const nestedText = (depth: number, kind: 'arrays' | 'objects' | 'mixed'): string => {
    if (kind === 'arrays') return '['.repeat(depth) + '1' + ']'.repeat(depth);
    if (kind === 'objects') return '{"k":'.repeat(depth) + '1' + '}'.repeat(depth);
    const pairs = Math.floor(depth / 2);
    const odd = depth % 2 === 1;
    return '{"k":['.repeat(pairs) + (odd ? '{"k":1}' : '1') + ']}'.repeat(pairs);
  };

  /**
   * A body nested `depth` levels in all: the nesting as the whole body, or in a
   * field beside other fields (strings with brackets in them among them).
   */
  const nestedBody = (depth: number, kind: 'arrays' | 'objects' | 'mixed', inField: boolean): string =>
    inField ? `{"api_key":"svc_live_${'0'.repeat(48)}","note":"[{\\"[{","x":${nestedText(depth - 1, kind)}}` : nestedText(depth, kind);

  /** Deep enough to be refused, small enough for the 64 KiB limit (6 characters a level for objects). */
  const deep = fc.record({
    kind: fc.constantFrom<'arrays' | 'objects' | 'mixed'>('arrays', 'objects', 'mixed'),
    depth: fc.oneof(fc.integer({ min: MAX_JSON_DEPTH + 1, max: MAX_JSON_DEPTH + 8 }), fc.integer({ min: MAX_JSON_DEPTH + 1, max: 9_000 })),
    inField: fc.boolean(),
    withToken: fc.boolean(),
  });

  function deepRequest(route: { method: string; path: string }, body: string, withToken: boolean): FuzzRequest {
    return {
      method: route.method,
      path: route.path,
      headers: { 'content-type': 'application/json', ...(withToken ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {}) },
      body,
    };
  }

  /** A body nested too deep: 400 INVALID_REQUEST saying so wherever a body is read, and no 5xx anywhere. */
  async function checkTooDeep(request: FuzzRequest): Promise<void> {
    const res = await send(request);
    if (!BODY_METHODS.has(request.method)) return judgeAnyCode(request, res);
    if (res.status !== 400 || res.body?.code !== 'INVALID_REQUEST' || res.body?.message !== JSON_TOO_DEEP) {
      const seen = { request: describeRequest(request), status: res.status, text: res.text.slice(0, 300) };
      throw new Error(`a body nested too deep was not refused as such: ${JSON.stringify(seen)}`);
    }
  }

  /** No 5xx; an error is the envelope with one of the service's codes, at its status. */
  function judgeAnyCode(request: FuzzRequest, res: HttpAnswer): void {
    const seen = { request: describeRequest(request), status: res.status, text: res.text.slice(0, 300) };
    if (res.status >= 500) throw new Error(`5xx answer: ${JSON.stringify(seen)}`);
    if (res.status < 400) return;
    const code = res.body?.code as keyof typeof ERROR_STATUS | undefined;
    if (typeof res.body?.error !== 'string' || code === undefined || ERROR_STATUS[code] !== res.status) {
      throw new Error(`not the error envelope: ${JSON.stringify(seen)}`);
    }
  }

  it('every route, with a body nested 30,000 deep (or 9,000 objects): 400 INVALID_REQUEST wherever the body is read', async () => {
    const routes = everyRoute();
    expect(routes.filter((route) => BODY_METHODS.has(route.method)).length).toBeGreaterThanOrEqual(29);
    for (const route of routes) {
      for (const body of [nestedText(30_000, 'arrays'), nestedBody(9_000, 'objects', true)]) {
        await checkTooDeep(deepRequest(route, body, true));
      }
    }
  }, 120_000);

  it(
    'any route, nesting of any kind deeper than 32, whole or in a field, with or without the admin token',
    async () => {
      const routes = everyRoute();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), deep, async (route, { kind, depth, inField, withToken }) =>
          checkTooDeep(deepRequest(route, nestedBody(depth, kind, inField), withToken)),
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'any route, nesting of 32 levels or fewer: never refused as too deep, never a 5xx',
    async () => {
      const routes = everyRoute();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.integer({ min: 2, max: MAX_JSON_DEPTH }),
          fc.constantFrom<'arrays' | 'objects' | 'mixed'>('arrays', 'objects', 'mixed'),
          fc.boolean(),
          async (route, depth, kind, withToken) => {
            const request = deepRequest(route, nestedBody(depth, kind, true), withToken);
            const res = await send(request);
            judgeAnyCode(request, res);
            if (res.body?.message === JSON_TOO_DEEP) {
              throw new Error(`refused as too deep at ${depth} levels: ${JSON.stringify(describeRequest(request))}`);
            }
          },
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('leaves the service healthy', async () => {
    const health = await t.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('healthy');
  });
});

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function describeRequest(request: FuzzRequest): object {
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string'
        ? request.body.slice(0, 300)
        : `<${request.body.length} bytes>`;
  return { method: request.method, path: request.path, headers: request.headers, body };
}
