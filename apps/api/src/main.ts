import 'reflect-metadata';
import { ConfigError, loadConfig } from '@svc/config';
import { createApiApp } from './create-api-app';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApiApp(config);
  await app.listen({ port: config.http.port, host: config.http.host });
  console.log(`svc-licensing listening on http://${config.http.host}:${config.http.port} (${config.database.kind})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(`svc-licensing failed to start: ${(error as Error)?.message ?? String(error)}`);
  }
  process.exit(1);
});
