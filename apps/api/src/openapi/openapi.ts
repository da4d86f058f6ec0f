import { type INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import swaggerUiFolder from 'swagger-ui-dist/absolute-path';
import { DOCS_PATH } from '../observability/security-headers';
import { errorExamples } from './api-errors.decorator';
import { ErrorEnvelopeResponse } from '../http/error-envelope.response';

/** The document as JSON, beside the browsable page at DOCS_PATH. */
export const DOCS_JSON_PATH = `${DOCS_PATH}-json`;

/** Security scheme names (components.securitySchemes). */
export const API_KEY_HEADER = 'api_key_header';
export const API_KEY_QUERY = 'api_key_query';
export const ADMIN_BEARER = 'admin_bearer';

const DESCRIPTION = `Licensing, model registry and analytics backend of the BCI SDK (SPEC.md, CONTRACT.md).

**Keys.** \`<prefix>_live_\` or \`<prefix>_test_\` followed by 48 hex digits (prefix \`svc\` by default). Each endpoint
reads the key from its own places, first found wins: the body field \`api_key\` (auth endpoints, analytics,
installer POST), the \`X-API-Key\` header (installer, models, analytics) or the \`api_key\` query parameter (GET
installer and models). The header and query placements are the security schemes \`${API_KEY_HEADER}\` and
\`${API_KEY_QUERY}\`; the body placement is the \`api_key\` field of each request body (a security requirement \`{}\`
marks an endpoint whose key may come in the body). Checks run in this order: route (404/405), body (413, 415,
400), rate limit (429), missing key (400 \`MISSING_KEY\`), format (400 \`INVALID_FORMAT\`), unknown or revoked
(401 \`INVALID_KEY\`), expired (401 \`KEY_EXPIRED\`), then the endpoint's own rules.

**Errors.** Every error is \`{ "error": string, "code": string, "message"?: string }\` (schema \`ErrorEnvelopeResponse\`).

**Rate limits.** Per endpoint and key (or client address), per minute: validate 100, refresh 10, revoke 10,
rotate 10, installer 20, models 60, analytics 1000. Every answer of a limited endpoint carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 carries \`Retry-After\`.

**Unversioned aliases.** Every \`/v1/...\` path also answers without \`/v1\` (\`/auth/validate\`,
\`/installer/github-token\`, ...), identically and sharing its rate-limit counter, unless \`LEGACY_ROUTES=false\`.
They are not listed separately.

**Request ids.** Every answer carries \`X-Request-Id\`: the caller's own when it sent a sane one (1-128 of
\`A-Z a-z 0-9 . _ : @ / + = -\`), else a new UUID. Log lines carry it as \`req_id\`.

**Admin API.** \`/admin/v1/...\` (scheme \`${ADMIN_BEARER}\`: \`Authorization: Bearer <ADMIN_TOKEN or an operator's
\`svc_admin_\` token>\`) exists while \`ADMIN_TOKEN\` is configured or an operator is enabled; otherwise its paths answer
404. Each operation names the permission it needs and the lowest role holding it in \`x-permission\` (roles \`viewer\` <
\`support\` < \`admin\` < \`owner\`; \`ADMIN_TOKEN\` is an owner); a role without it gets 403 \`FORBIDDEN\`.`;

/**
 * The OpenAPI 3 document of the running application, scanned from its
 * controllers and DTO classes, with every object's keys sorted so the
 * same code always gives the same bytes (see `stableJson`).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('svc-licensing')
    .setDescription(DESCRIPTION)
    .setVersion('v1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key in the X-API-Key header' }, API_KEY_HEADER)
    .addApiKey(
      { type: 'apiKey', in: 'query', name: 'api_key', description: 'The API key in the api_key query parameter (GET only)' },
      API_KEY_QUERY,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: "ADMIN_TOKEN (the bootstrap owner) or an operator's own svc_admin_ token",
      },
      ADMIN_BEARER,
    )
    .addTag('auth', 'Key validation, refresh and revocation (SPEC 4.1-4.3)')
    .addTag('installer', 'The installer token (SPEC 4.4)')
    .addTag('models', 'The model registry as a key sees it (SPEC 4.6, CONTRACT 7)')
    .addTag('analytics', 'Usage events (SPEC 4.5)')
    .addTag('health', 'Health and Kubernetes probes (SPEC 4.7, CONTRACT 10)')
    .addTag('operations', 'Metrics and the built-in model host')
    .addTag('admin', "The operators' API (CONTRACT 12)")
    .build();
  config.components = { ...config.components, examples: errorExamples() };
  delete config.servers;
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
    extraModels: [ErrorEnvelopeResponse],
  });
  return sortKeys(document) as OpenAPIObject;
}

/** The browsable page: Swagger UI loading the JSON document; no inline script (see the page's CSP). */
const DOCS_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>svc-licensing API</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/swagger-ui-init.js"></script>
</body>
</html>
`;

const DOCS_INIT_JS = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '${DOCS_JSON_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
};
`;

/**
 * The Swagger UI files the page loads, from swagger-ui-dist (declared at the version @nestjs/swagger
 * pins, so one copy is installed), found by its own `absolute-path` (not its index, which loads the
 * browser bundle into the server).
 */
const UI_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/**
 * Serves the document at DOCS_JSON_PATH (exactly the bytes `npm run openapi`
 * commits) and Swagger UI at DOCS_PATH, as a handful of exact routes. Not
 * SwaggerModule.setup: its UI goes through @fastify/static 10, whose
 * dependency content-disposition 3 is an ES module only (Jest's CommonJS
 * runtime cannot load it, nor Node before 20.19), and it mounts wildcard
 * routes. Files are read once, on first request, and the document is built on
 * its first request too (it scans every route, and most instances never serve
 * it, so a start does not pay for it). Call before `app.init()`.
 */
export function serveOpenApiDocument(instance: FastifyInstance, buildDocument: () => OpenAPIObject): void {
  const text = (path: string, type: string, body: () => string): void => {
    instance.get(path, (_request, reply) => {
      void reply.type(type).header('cache-control', 'no-cache').send(body());
    });
  };
  let documentJson: string | undefined;
  text(DOCS_JSON_PATH, 'application/json; charset=utf-8', () => (documentJson ??= stableJson(buildDocument())));
  text(DOCS_PATH, 'text/html; charset=utf-8', () => DOCS_HTML);
  text(`${DOCS_PATH}/swagger-ui-init.js`, 'application/javascript; charset=utf-8', () => DOCS_INIT_JS);
  const folder = swaggerUiFolder();
  for (const [file, type] of Object.entries(UI_ASSETS)) {
    let bytes: Promise<Buffer> | undefined;
    instance.get(`${DOCS_PATH}/${file}`, async (_request, reply) => {
      bytes ??= readFile(join(folder, file));
      return reply
        .type(type)
        .header('cache-control', 'public, max-age=86400')
        .send(await bytes);
    });
  }
}

/** Deterministic JSON: keys sorted at every level, two-space indent, a final newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== undefined) sorted[key] = sortKeys(inner);
  }
  return sorted;
}
