import { ConfigError } from '@svc/config';
import { DomainError } from '@svc/domain';
import { publicHintOf } from '@svc/presentation';
import { CliUsageError } from './cli-usage-error';

/** Exit statuses: 0 done, 1 refused (domain rule, configuration, usage), 2 anything unexpected. */
export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_FAILED = 2;

/**
 * Writes a failure to stderr and returns the exit status (STYLE 7). Domain
 * errors print their public code, description and hint (as the edge words it) only; unexpected errors
 * print their message, and their stack only when asked with `--verbose`.
 */
export function reportFailure(error: unknown, verbose: boolean, write: (line: string) => void = toStderr): number {
  if (error instanceof DomainError) {
    const hint = publicHintOf(error);
    write(`${error.code}: ${error.description}${hint ? ` (${hint})` : ''}`);
    return EXIT_REFUSED;
  }
  if (error instanceof ConfigError) {
    write(error.message);
    return EXIT_REFUSED;
  }
  if (error instanceof CliUsageError) {
    write(`error: ${error.message}`);
    return EXIT_REFUSED;
  }
  const failure = error instanceof Error ? error : new Error(String(error));
  write(`error: ${failure.message}`);
  write(verbose && failure.stack ? failure.stack : '(run again with --verbose for the stack trace)');
  return EXIT_FAILED;
}

function toStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
