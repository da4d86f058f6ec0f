import 'reflect-metadata';
import { loadConfig } from '@svc/config';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';
import { EXIT_OK, reportFailure } from './shared/failure-report';

/** How long the process may linger after its answer (open handles of a driver) before it is ended. */
const EXIT_GRACE_MS = 2000;

/**
 * Loads the configuration, runs one command on the configured database, closes
 * the database and returns the exit status. Nest logs nothing: failures are
 * reported here, once (with the stack under `--verbose`).
 */
async function main(argv: readonly string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  let failure: { error: unknown } | undefined;
  try {
    const config = loadConfig(process.env);
    const app = await CommandFactory.runWithoutClosing(CliModule.forRoot(config), {
      logger: false,
      abortOnError: false,
      serviceErrorHandler: (error: unknown) => {
        failure = { error };
      },
    });
    await app.close();
  } catch (error) {
    failure ??= { error };
  }
  return failure ? reportFailure(failure.error, verbose) : EXIT_OK;
}

void main(process.argv).then((status) => {
  process.exitCode = status;
  setTimeout(() => process.exit(status), EXIT_GRACE_MS).unref();
});
