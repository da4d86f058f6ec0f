import { Command, CommandRunner } from 'nest-commander';
import { CliUsageError } from '../shared/cli-usage-error';
import { CreateKeyCommand } from './create-key.command';
import { ListKeysCommand } from './list-keys.command';
import { RevokeKeyCommand } from './revoke-key.command';
import { RotateKeyCommand } from './rotate-key.command';
import { ShowKeyCommand } from './show-key.command';
import { UpdateKeyCommand } from './update-key.command';

/**
 * `keys`: the parent of the key commands. It takes no options of its own, so
 * that `--json` after a subcommand reaches the subcommand.
 */
@Command({
  name: 'keys',
  description: 'issue, list, show, update, rotate and revoke API keys',
  subCommands: [CreateKeyCommand, ListKeysCommand, ShowKeyCommand, UpdateKeyCommand, RotateKeyCommand, RevokeKeyCommand],
})
export class KeysCommand extends CommandRunner {
  async run(params: string[]): Promise<void> {
    this.command.outputHelp({ error: true });
    throw new CliUsageError(
      params.length > 0 ? `unknown command 'keys ${params[0]}'` : 'keys needs a command: create, list, show, update, rotate or revoke',
    );
  }
}
