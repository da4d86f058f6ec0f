import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RouteTable } from '../../apps/api/src/http/route-table';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';

const ROOT = join(__dirname, '..', '..');
const COMMITTED = join(ROOT, 'openapi.json');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ROUTER_NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' };

type Operation = {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Array<Record<string, string[]>>;
  requestBody?: unknown;
  parameters?: Array<{ name: string; in: string }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, unknown>;
  };
};

/** Fastify's `:param` as OpenAPI's `{param}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The documentation's own routes (the page, its files, the JSON) are not part of the API it documents. */
function isDocsRoute(url: string): boolean {
  return url === '/api/docs' || url.startsWith('/api/docs/') || url === '/api/docs-json';
}

/** The operator console's pages and files (CONTRACT 17): a browsable app, not API operations. */
function isConsoleRoute(url: string): boolean {
  return url === '/console' || url.startsWith('/console/');
}

describe('OpenAPI document (GET /api/docs-json, GET /api/docs)', () => {
  let t: TestApp;
  let document: Document;
  beforeAll(async () => {
    t = await TestApp.start();
    document = (await t.get('/api/docs-json')).body;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('drift', () => {
    it('the running service serves exactly the committed openapi.json (run `npm run openapi` after changing the API)', async () => {
      const served = await t.get('/api/docs-json');
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^application\/json/);
      const committed = readFileSync(COMMITTED, 'utf8');
      expect(served.body).toEqual(JSON.parse(committed));
      expect(served.text === committed).toBe(true);
    });

    it("the console's generated schema is openapi-typescript's output of the committed openapi.json (run `npm run openapi`)", () => {
      // the generator's arguments are the script's own (package.json `openapi:console`), with --check: it exits 1 when the file differs
      const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
        'openapi:console'
      ];
      const [command, ...args] = script.split(' ');
      expect(command).toBe('openapi-typescript');
      const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
      const run = spawnSync(process.execPath, [cli, ...args, '--check'], { cwd: ROOT, encoding: 'utf8' });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    });

    it('is deterministic: keys sorted at every level, no timestamps', () => {
      const walk = (value: unknown, at: string): void => {
        if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${at}[${i}]`));
        if (value === null || typeof value !== 'object') return;
        const keys = Object.keys(value);
        expect({ at, keys }).toEqual({ at, keys: [...keys].sort() });
        for (const key of keys) walk((value as Record<string, unknown>)[key], `${at}.${key}`);
      };
      walk(document, '$');
      expect(JSON.stringify(document)).not.toMatch(/20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
    });
  });

  describe('routes', () => {
    it('documents every route the running service answers', () => {
      const routes = t.app
        .get(RouteTable)
        .list()
        .filter(({ method, url }) => method !== 'HEAD' && !isDocsRoute(url) && !isConsoleRoute(url));
      expect(routes.length).toBeGreaterThan(20);
      const missing = routes.filter(
        ({ method, url }) => !document.paths[openApiPath(url)]?.[method.toLowerCase() as (typeof METHODS)[number]],
      );
      expect(missing).toEqual([]);
    });

    it("every documented operation answers: not the router's 404, not 405, never 5xx", async () => {
      const samples: Record<string, string> = {
        name: 'motor_imagery_4class_v1',
        key_id: 'key_000000000000000000000000',
        file: 'no-such-file.bin',
      };
      const answers: Array<{ method: string; path: string; status: number; routerNotFound: boolean }> = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const method of METHODS) {
          if (!operations[method]) continue;
          const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => samples[name] ?? 'x');
          const res = await t.request(method.toUpperCase(), url);
          answers.push({
            method,
            path,
            status: res.status,
            routerNotFound: res.status === 404 && res.body?.message === ROUTER_NOT_FOUND.message,
          });
        }
      }
      expect(answers.length).toBeGreaterThan(20);
      expect(answers.filter((a) => a.routerNotFound || a.status === 405 || a.status >= 500)).toEqual([]);
    });

    it('lists the public API of SPEC and CONTRACT, the probes and the admin API (aliases are described, not repeated)', () => {
      const operations = Object.entries(document.paths).flatMap(([path, ops]) =>
        METHODS.filter((m) => ops[m]).map((m) => `${m.toUpperCase()} ${path}`),
      );
      expect(operations).toEqual(
        expect.arrayContaining([
          'POST /v1/auth/validate',
          'POST /v1/auth/refresh',
          'POST /v1/auth/revoke',
          'POST /v1/auth/rotate',
          'GET /v1/installer/github-token',
          'POST /v1/installer/github-token',
          'GET /v1/models/list',
          'GET /v1/models/{name}',
          'GET /v1/models/{name}/download',
          'POST /v1/analytics/log',
          'GET /api/health',
          'GET /api/health/live',
          'GET /api/health/ready',
          'GET /metrics',
          'POST /admin/v1/keys',
          'GET /admin/v1/keys/{key_id}',
          'PATCH /admin/v1/keys/{key_id}',
          'POST /admin/v1/keys/{key_id}/revoke',
          'POST /admin/v1/keys/{key_id}/rotate',
          'GET /admin/v1/audit',
          'GET /admin/v1/usage',
          'GET /admin/v1/models',
          'POST /admin/v1/models',
          'PUT /admin/v1/models/{name}/file',
        ]),
      );
      expect(Object.keys(document.paths).filter((path) => /^\/(auth|installer|models|analytics|devices)\//.test(path))).toEqual([]);
      expect(JSON.stringify(document)).toContain('also answers without `/v1`');
    });
  });

  describe('schemas', () => {
    const propertiesOf = (name: string): string[] => Object.keys(document.components.schemas[name]?.properties ?? {}).sort();

    it('SPEC field names for every public body', () => {
      expect(propertiesOf('ValidateKeyResponse')).toEqual(
        [
          'valid',
          'user_id',
          'email',
          'name',
          'organization',
          'license_type',
          'features',
          'quota',
          'expires_at',
          'license_token',
          'rotation_recommended',
        ].sort(),
      );
      expect(propertiesOf('LicenseResponse')).toEqual(
        ['valid', 'license_type', 'features', 'quota', 'expires_at', 'license_token', 'rotation_recommended'].sort(),
      );
      // CONTRACT 16
      expect(propertiesOf('RotatedKeyResponse')).toEqual(['api_key', 'key_id', 'expires_at', 'previous_key_expires_at', 'message'].sort());
      expect(propertiesOf('RotateKeyRequest')).toEqual(['api_key', 'grace_seconds']);
      expect(propertiesOf('QuotaResponse')).toEqual(['monthly_limit', 'used', 'remaining', 'resets_at'].sort());
      expect(propertiesOf('RevokeKeyResponse')).toEqual(['message', 'revoked']);
      expect(propertiesOf('GithubTokenResponse')).toEqual(['success', 'github_token', 'expires_at', 'message'].sort());
      // SPEC 4.5's three, and CONTRACT 22's duplicate (present only on a repeat)
      expect(propertiesOf('LogEventResponse')).toEqual(['logged', 'event_id', 'quota', 'duplicate'].sort());
      expect(propertiesOf('ReducedQuotaResponse')).toEqual(['used', 'remaining'].sort());
      expect(propertiesOf('ModelListResponse')).toEqual(['models', 'total']);
      expect(propertiesOf('ModelRecordResponse')).toEqual(
        expect.arrayContaining([
          'name',
          'version',
          'type',
          'paradigm',
          'n_features',
          'n_classes',
          'size_mb',
          'download_url',
          'checksum',
          'requires_license',
          'metadata',
        ]),
      );
      expect(propertiesOf('ModelMetadataResponse')).toEqual(
        ['description', 'training_subjects', 'accuracy', 'feature_type', 'recommended_use'].sort(),
      );
      expect(propertiesOf('KeyRequest')).toEqual(['api_key']);
      expect(propertiesOf('RevokeKeyRequest')).toEqual(['api_key', 'reason']);
      // SPEC 4.5's fields and CONTRACT 22's idempotency_key and occurred_at; a batch's events take the same, without the key
      const eventFields = ['event_type', 'model_name', 'inference_type', 'duration_ms', 'success', 'error_message', 'metadata'];
      const fieldEvent = [...eventFields, 'idempotency_key', 'occurred_at'];
      expect(propertiesOf('LogEventRequest')).toEqual(['api_key', ...fieldEvent].sort());
      expect(propertiesOf('FieldEventRequest')).toEqual([...fieldEvent].sort());
      expect(propertiesOf('BatchEventsRequest')).toEqual(['api_key', 'events']);
      expect(propertiesOf('BatchEventsResponse')).toEqual(['accepted', 'duplicates', 'quota', 'refused', 'results']);
      expect(propertiesOf('HealthyResponse')).toEqual(['status', 'timestamp', 'version', 'database'].sort());
      expect(propertiesOf('UnhealthyResponse')).toEqual(['status', 'timestamp', 'error', 'database'].sort());
    });

    it("the error envelope is { error, code, message? }, and DEVICE_LIMIT_REACHED's max_devices and active (CONTRACT 23)", () => {
      const envelope = document.components.schemas.ErrorEnvelopeResponse;
      expect(Object.keys(envelope.properties ?? {}).sort()).toEqual(['active', 'code', 'error', 'max_devices', 'message']);
      expect([...(envelope.required ?? [])].sort()).toEqual(['code', 'error']);
    });

    it('every operation documents its error answers with the envelope, by status and code', () => {
      const expectedCodes: Array<[string, string, string, string[]]> = [
        ['/v1/auth/validate', 'post', '400', ['INVALID_REQUEST', 'MISSING_KEY', 'INVALID_FORMAT']],
        ['/v1/auth/validate', 'post', '401', ['INVALID_KEY', 'KEY_EXPIRED']],
        ['/v1/auth/validate', 'post', '429', ['RATE_LIMIT_EXCEEDED', 'QUOTA_EXCEEDED']],
        ['/v1/auth/revoke', 'post', '404', ['KEY_NOT_FOUND']],
        ['/v1/auth/rotate', 'post', '400', ['INVALID_REQUEST', 'MISSING_KEY', 'INVALID_FORMAT']],
        ['/v1/auth/rotate', 'post', '401', ['INVALID_KEY', 'KEY_EXPIRED']],
        ['/v1/auth/rotate', 'post', '409', ['KEY_ROTATED']],
        ['/v1/auth/rotate', 'post', '429', ['RATE_LIMIT_EXCEEDED']],
        ['/v1/installer/github-token', 'get', '502', ['UPSTREAM_ERROR']],
        ['/v1/installer/github-token', 'get', '503', ['NOT_CONFIGURED', 'SERVICE_UNAVAILABLE']],
        ['/v1/models/{name}', 'get', '403', ['INSUFFICIENT_LICENSE', 'DEVICE_NOT_ACTIVATED', 'DEVICE_REQUIRED']],
        ['/v1/auth/validate', 'post', '403', ['DEVICE_NOT_ACTIVATED', 'DEVICE_REQUIRED']],
        ['/v1/devices/activate', 'post', '409', ['DEVICE_LIMIT_REACHED']],
        ['/v1/devices/heartbeat', 'post', '404', ['DEVICE_NOT_FOUND']],
        ['/v1/devices/deactivate', 'post', '404', ['DEVICE_NOT_FOUND']],
        ['/v1/models/{name}', 'get', '404', ['MODEL_NOT_FOUND']],
        ['/v1/models/list', 'get', '400', ['MISSING_KEY', 'INVALID_FORMAT', 'INVALID_PARAMETER', 'INVALID_REQUEST']],
        [
          '/v1/analytics/log',
          'post',
          '400',
          ['INVALID_REQUEST', 'MISSING_KEY', 'INVALID_FORMAT', 'MISSING_EVENT_TYPE', 'INVALID_EVENT_TYPE'],
        ],
        ['/admin/v1/keys/{key_id}/revoke', 'post', '409', ['KEY_REVOKED']],
        ['/admin/v1/keys/{key_id}/rotate', 'post', '409', ['KEY_REVOKED', 'KEY_ROTATED']],
      ];
      for (const [path, method, status, codes] of expectedCodes) {
        const schema = document.paths[path]?.[method as 'get']?.responses[status]?.content?.['application/json']?.schema as
          { allOf: Array<{ $ref?: string; properties?: { code: { enum: string[] } } }> } | undefined;
        expect({ path, method, status, ref: schema?.allOf[0].$ref }).toEqual({
          path,
          method,
          status,
          ref: '#/components/schemas/ErrorEnvelopeResponse',
        });
        expect({ path, method, status, codes: [...(schema?.allOf[1].properties?.code.enum ?? [])].sort() }).toEqual({
          path,
          method,
          status,
          codes: [...codes].sort(),
        });
      }
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const method of METHODS) {
          const operation = operations[method];
          if (!operation) continue;
          const errors = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
          expect({ path, method, has405: errors.includes('405'), has500: errors.includes('500') }).toEqual({
            path,
            method,
            has405: true,
            has500: true,
          });
        }
      }
    });
  });

  describe('security schemes', () => {
    it('the key in X-API-Key, in ?api_key=, or in the body field; the admin API under a bearer token', () => {
      expect(document.components.securitySchemes).toEqual({
        api_key_header: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
        api_key_query: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'api_key' }),
        admin_bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      });
      const security = (path: string, method: string) => document.paths[path]?.[method as 'get']?.security;
      expect(security('/v1/installer/github-token', 'get')).toEqual([{ api_key_header: [] }, { api_key_query: [] }]);
      expect(security('/v1/installer/github-token', 'post')).toEqual([{ api_key_header: [] }, {}]);
      expect(security('/v1/models/list', 'get')).toEqual([{ api_key_header: [] }, { api_key_query: [] }]);
      expect(security('/v1/analytics/log', 'post')).toEqual([{}, { api_key_header: [] }]);
      expect(security('/v1/auth/validate', 'post')).toEqual([{}]);
      for (const path of Object.keys(document.paths).filter((p) => p.startsWith('/admin/'))) {
        for (const method of METHODS) {
          if (document.paths[path][method])
            expect({ path, method, security: security(path, method) }).toEqual({ path, method, security: [{ admin_bearer: [] }] });
        }
      }
      expect(security('/api/health', 'get')).toBeUndefined();
    });
  });

  describe('the browsable page', () => {
    it('GET /api/docs is Swagger UI, with a Content-Security-Policy of its own; its files are served', async () => {
      const page = await t.get('/api/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(page.headers.get('content-security-policy')).not.toMatch(/upgrade-insecure-requests/);
      const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
      expect(scripts).toEqual(
        expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui-init.js', '/api/docs/swagger-ui.css']),
      );
      for (const asset of scripts) {
        const res = await t.get(asset);
        expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
      }
      expect((await t.get('/api/docs/swagger-ui-init.js')).text).toContain("url: '/api/docs-json'");
    });

    it('is never rate-limited and keeps the 404/405 answers of the rest of the service', async () => {
      for (const path of ['/api/docs', '/api/docs-json', '/api/docs/swagger-ui-init.js']) {
        const res = await t.get(path);
        expect({ path, limit: res.headers.get('x-ratelimit-limit') }).toEqual({ path, limit: null });
      }
      const wrongMethod = await t.post('/api/docs-json', {});
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
      for (const path of ['/api/docs/nope.js', '/api/docs/', '/api/doc', '/api/docs-yaml', '/api/docs/../../etc/passwd']) {
        const res = await t.get(path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: ROUTER_NOT_FOUND });
      }
    });

    it('without ADMIN_TOKEN or an enabled operator the admin API answers 404; it stays documented (an operator made with the CLI brings it up)', async () => {
      const bare = await TestApp.start({ env: { ADMIN_TOKEN: '' } });
      try {
        const doc: Document = (await bare.get('/api/docs-json')).body;
        expect(Object.keys(doc.paths).filter((path) => path.startsWith('/admin/'))).toEqual(
          Object.keys(document.paths).filter((path) => path.startsWith('/admin/')),
        );
        expect((await bare.request('GET', '/admin/v1/audit', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(
          404,
        );
      } finally {
        await bare.close();
      }
    });
  });
});
