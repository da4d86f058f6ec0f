import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { NO_SUCH_ENDPOINT, REASON_PHRASE, errorEnvelope } from '../http/error-envelope';

/** Where the operator console lives (CONTRACT 17). */
export const CONSOLE_PATH = '/console';

/**
 * The console's Content-Security-Policy: its own scripts, styles and API only;
 * no inline script or style, no third-party origin, no framing, no <base>.
 * uPlot draws on a canvas and sets element sizes through the CSSOM (not inline
 * style attributes in markup), which `style-src 'self'` allows.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Vite names the bundles it emits under assets/ after their content hash: they may be cached for good. */
const HASHED = /^assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

interface ConsoleFile {
  readonly type: string;
  readonly cacheControl: string;
  readonly bytes: Buffer;
}

/**
 * Serves the console's built files (`npm run build` writes them to
 * dist/console) at CONSOLE_PATH, as a handful of routes on the Fastify
 * instance, like the API documentation: every file is read once at start-up
 * into a fixed table, so a request can only ever name a file of the build (no
 * path is joined from the URL). Any other path under CONSOLE_PATH without a
 * file extension is a page of the single-page app and gets index.html (deep
 * links); a missing asset is a JSON 404. Every answer carries the console's
 * Content-Security-Policy beside the service's own security headers.
 * The console exists while the admin API does (`exists`: ADMIN_TOKEN set, or
 * an operator enabled, CONTRACT 21): otherwise every path under CONSOLE_PATH
 * is the 404 of an unknown path, so an operator made with the CLI brings the
 * console up with the API, on every instance, without a restart.
 * Call before `app.init()`.
 */
export function serveConsole(instance: FastifyInstance, dir: string, exists: () => Promise<boolean>): void {
  const files = readBuild(dir);
  const index = files.get('index.html');
  const send = (reply: FastifyReply, status: number, type: string, cacheControl: string, body: Buffer | string): FastifyReply =>
    reply
      .status(status)
      .header('content-security-policy', CONSOLE_CONTENT_SECURITY_POLICY)
      .header('cache-control', cacheControl)
      .type(type)
      .send(body);
  const error = (reply: FastifyReply, status: 404 | 503, code: 'NOT_FOUND' | 'SERVICE_UNAVAILABLE', message: string): FastifyReply =>
    send(reply, status, 'application/json; charset=utf-8', 'no-store', JSON.stringify(errorEnvelope(REASON_PHRASE[status], code, message)));
  const page = (reply: FastifyReply): FastifyReply =>
    index === undefined
      ? error(reply, 503, 'SERVICE_UNAVAILABLE', 'The console was not built: run "npm run build"')
      : send(reply, 200, index.type, index.cacheControl, index.bytes);

  const absent = (reply: FastifyReply): FastifyReply =>
    reply
      .status(404)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(errorEnvelope(REASON_PHRASE[404], 'NOT_FOUND', NO_SUCH_ENDPOINT)));

  instance.get(CONSOLE_PATH, async (_request, reply) => ((await exists()) ? page(reply) : absent(reply)));
  instance.get(`${CONSOLE_PATH}/*`, async (request, reply) => {
    if (!(await exists())) return absent(reply);
    const path = (request.params as { '*': string })['*'];
    const file = files.get(path);
    if (file !== undefined) return send(reply, 200, file.type, file.cacheControl, file.bytes);
    if (path.startsWith('assets/') || extname(path) !== '') return error(reply, 404, 'NOT_FOUND', 'No such console file');
    return page(reply);
  });
}

/** Every file of the build by its path under the folder ('/'-separated); empty when the console was not built. */
function readBuild(dir: string): ReadonlyMap<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(join(dir, 'index.html'))) return files;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        continue;
      }
      const type = TYPES[extname(entry.name).toLowerCase()];
      if (!entry.isFile() || type === undefined) continue;
      const path = relative(dir, full).split(sep).join('/');
      const cacheControl = HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
      files.set(path, { type, cacheControl, bytes: readFileSync(full) });
    }
  };
  walk(dir);
  return files;
}
