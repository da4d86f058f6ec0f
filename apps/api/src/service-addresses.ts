import type { AppConfig } from '@svc/config';
import { CONSOLE_PATH } from './console/serve-console';
import { DOCS_PATH } from './observability/security-headers';

/**
 * What `npm start` says once the service listens: where the API, its OpenAPI page and the
 * operator console are, or what turns the console on. A host that listens on every address
 * (0.0.0.0, ::) is shown as localhost, the address a person on this machine opens.
 */
export function serviceAddresses(config: AppConfig): string {
  const { host, port } = config.http;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${shown}:${port}`;
  const console = config.console.enabled
    ? `console ${base}${CONSOLE_PATH} (sign in with ADMIN_TOKEN)`
    : config.adminToken === null
      ? `console off (set ADMIN_TOKEN, at least 16 characters, to serve it at ${CONSOLE_PATH})`
      : 'console off (CONSOLE_ENABLED=false)';
  return `svc-licensing listening on ${base} (${config.database.kind}): API under ${base}/v1/, OpenAPI page ${base}${DOCS_PATH}, ${console}`;
}
