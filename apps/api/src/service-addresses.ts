import type { AppConfig } from '@svc/config';
import { CONSOLE_PATH } from './console/serve-console';
import { DOCS_PATH } from './observability/security-headers';

/**
 * What `npm start` says once the service listens: where the API, its OpenAPI page and the
 * operator console are, or what brings the console up (ADMIN_TOKEN, or an operator: CONTRACT 21). A host that listens on every address
 * (0.0.0.0, ::) is shown as localhost, the address a person on this machine opens.
 */
export function serviceAddresses(config: AppConfig): string {
  const { host, port } = config.http;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${shown}:${port}`;
  const console = !config.console.enabled
    ? 'console off (CONSOLE_ENABLED=false)'
    : config.adminToken === null
      ? `console ${base}${CONSOLE_PATH} once an operator exists (npm run cli -- operators create --name N --role owner; or set ADMIN_TOKEN)`
      : `console ${base}${CONSOLE_PATH} (sign in with ADMIN_TOKEN or an operator's token)`;
  return `svc-licensing listening on ${base} (${config.database.kind}): API under ${base}/v1/, OpenAPI page ${base}${DOCS_PATH}, ${console}`;
}
