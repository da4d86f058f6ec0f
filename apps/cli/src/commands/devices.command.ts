import { Command, CommandRunner } from 'nest-commander';
import { CliUsageError } from '../shared/cli-usage-error';
import { DevicesDeactivateCommand } from './devices-deactivate.command';
import { DevicesListCommand } from './devices-list.command';

/** `devices`: the parent of the device commands (no options of its own, so `--json` reaches the subcommand). */
@Command({
  name: 'devices',
  description: "list a key's license's devices and deactivate one",
  subCommands: [DevicesListCommand, DevicesDeactivateCommand],
})
export class DevicesCommand extends CommandRunner {
  async run(params: string[]): Promise<void> {
    this.command.outputHelp({ error: true });
    throw new CliUsageError(params.length > 0 ? `unknown command 'devices ${params[0]}'` : 'devices needs a command: list or deactivate');
  }
}
