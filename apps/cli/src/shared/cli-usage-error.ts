/** The command line itself is wrong (a missing subcommand): reported as `error: ...`, exit status 1. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
