import { CommandRunner, Option } from 'nest-commander';

/** The options every command takes, as nest-commander hands them to `run`. */
export interface CommonOptions {
  /** Print the admin API's JSON shape instead of a summary. */
  readonly json?: boolean;
  /** Print the stack of unexpected errors (read by main.ts, which reports failures). */
  readonly verbose?: boolean;
}

/**
 * The base of every command: `--json` and `--verbose`, and one way to print
 * an answer. Commands throw on failure; main.ts reports and sets the exit status.
 */
export abstract class CliCommand<O extends CommonOptions = CommonOptions> extends CommandRunner {
  abstract override run(params: string[], options?: O): Promise<void>;

  @Option({ flags: '--json', description: 'print JSON, in the same shape as the admin API' })
  parseJson(): boolean {
    return true;
  }

  @Option({ flags: '--verbose', description: 'print the stack trace of unexpected errors' })
  parseVerbose(): boolean {
    return true;
  }

  /** Prints `view` as one line of JSON with `--json` (for jq and scripts), else the human summary. */
  protected print(options: CommonOptions | undefined, view: unknown, summary: () => string): void {
    const text = options?.json ? JSON.stringify(view) : summary();
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}
