import { Command, CommandRunner } from 'nest-commander';
import { CliUsageError } from '../shared/cli-usage-error';
import { UsageShowCommand } from './usage-show.command';

/** `usage`: the parent of the usage commands (no options of its own, so `--json` reaches the subcommand). */
@Command({ name: 'usage', description: "show a license's usage", subCommands: [UsageShowCommand] })
export class UsageCommand extends CommandRunner {
  async run(params: string[]): Promise<void> {
    this.command.outputHelp({ error: true });
    throw new CliUsageError(params.length > 0 ? `unknown command 'usage ${params[0]}'` : 'usage needs a command: show');
  }
}
