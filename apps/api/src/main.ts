import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '@svc/config';
import { createApiApp } from './create-api-app';
import { serviceAddresses } from './service-addresses';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApiApp(config);
  await app.listen({ port: config.http.port, host: config.http.host });
  const logger = new Logger('Main');
  logger.log(serviceAddresses(config));

  // SIGTERM/SIGINT: stop accepting connections, let the requests in flight finish (bounded by
  // SHUTDOWN_TIMEOUT_MS), close the pools, exit 0. A second signal, or the timeout, exits at once.
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.log(`${signal} received: finishing requests in flight`);
    setTimeout(() => {
      logger.error(`shutdown took longer than ${config.http.shutdownTimeoutMs} ms: exiting`);
      process.exit(1);
    }, config.http.shutdownTimeoutMs).unref();
    app
      .close()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(`svc-licensing failed to start: ${(error as Error)?.message ?? String(error)}`);
  }
  process.exit(1);
});
