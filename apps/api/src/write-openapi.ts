import 'reflect-metadata';
import { loadConfig } from '@svc/config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApiApp } from './create-api-app';
import { DOCS_JSON_PATH } from './openapi/openapi';

/**
 * `npm run openapi`: builds the service without listening, with every
 * optional part on (admin API, metrics on the HTTP port, the built-in model
 * host) on a throwaway SQLite file, asks it for its document, and writes the
 * bytes it serves to `openapi.json` (or the path given). Deterministic: keys
 * sorted, no timestamps. The test suite fails when the committed file and the
 * running service's document differ.
 */
async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? 'openapi.json');
  const folder = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(folder, 'openapi.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
      SAMPLE_MODELS: 'false',
      ADMIN_TOKEN: 'openapi-document-placeholder-token',
      METRICS_ENABLED: 'true',
    });
    const app = await createApiApp(config, { logger: false });
    try {
      const answer = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: DOCS_JSON_PATH });
      if (answer.statusCode !== 200) throw new Error(`${DOCS_JSON_PATH} answered ${answer.statusCode}`);
      writeFileSync(target, answer.body);
      console.log(`wrote ${target} (${answer.body.length} bytes)`);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`openapi: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
