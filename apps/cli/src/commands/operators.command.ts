import { Command, CommandRunner } from 'nest-commander';
import { CliUsageError } from '../shared/cli-usage-error';
import { CreateOperatorCommand } from './operators-create.command';
import { DisableOperatorCommand } from './operators-disable.command';
import { ListOperatorsCommand } from './operators-list.command';
import { ReplaceOperatorTokenCommand } from './operators-token.command';

/** `operators`: the parent of the operator commands (no options of its own, so `--json` reaches the subcommand). */
@Command({
  name: 'operators',
  description: 'create, list and disable operators, and replace their admin tokens',
  subCommands: [CreateOperatorCommand, ListOperatorsCommand, DisableOperatorCommand, ReplaceOperatorTokenCommand],
})
export class OperatorsCommand extends CommandRunner {
  async run(params: string[]): Promise<void> {
    this.command.outputHelp({ error: true });
    throw new CliUsageError(
      params.length > 0 ? `unknown command 'operators ${params[0]}'` : 'operators needs a command: create, list, disable or token',
    );
  }
}
