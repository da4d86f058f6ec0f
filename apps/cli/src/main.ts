import 'reflect-metadata';
import { DatabaseFaults } from '@svc/application';
import { databaseLabel, loadConfig } from '@svc/config';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';
import { EXIT_OK, reportFailure } from './shared/failure-report';

/** How long the process may linger after its answer (open handles of a driver) before it is ended. */
const EXIT_GRACE_MS = 2000;
/** The start of the first line on stderr: `svc-licensing CLI: database sqlite /path/service.db` (a server's password masked). */
const CLI_DATABASE_LINE = 'svc-licensing CLI: database ';

/**
 * Loads the configuration, says on stderr which database it names (a CLI run
 * without the service's DATABASE_URL would otherwise work on the SQLite
 * default unnoticed; stdout stays the command's answer, `--json` included),
 * runs one command on it, closes the database and returns the exit status.
 * Nest logs nothing: failures are reported here, once (with the stack under
 * `--verbose`).
 */
async function main(argv: readonly string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  let failure: { error: unknown } | undefined;
  try {
    const config = loadConfig(process.env);
    process.stderr.write(`${CLI_DATABASE_LINE}${databaseLabel(config.database)}\n`);
    const app = await CommandFactory.runWithoutClosing(CliModule.forRoot(config), {
      logger: false,
      abortOnError: false,
      serviceErrorHandler: (error: unknown) => {
        failure = { error };
      },
    });
    // a database driver's failure, read as the domain's (DATABASE_UNAVAILABLE rather than a driver's message)
    if (failure) failure = { error: app.get(DatabaseFaults).translate(failure.error) };
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
