import { Command, CommandRunner } from 'nest-commander';
import { CliUsageError } from '../shared/cli-usage-error';
import { ModelsDeleteCommand } from './models-delete.command';
import { ModelsListCommand } from './models-list.command';
import { ModelsPublishCommand } from './models-publish.command';
import { ModelsShowCommand } from './models-show.command';
import { ModelsSweepCommand } from './models-sweep.command';

/**
 * `models`: the parent of the model registry commands. It takes no options of
 * its own, so that `--json` after a subcommand reaches the subcommand.
 */
@Command({
  name: 'models',
  description: 'publish, list, show, delete and sweep models of the registry',
  subCommands: [ModelsPublishCommand, ModelsListCommand, ModelsShowCommand, ModelsDeleteCommand, ModelsSweepCommand],
})
export class ModelsCommand extends CommandRunner {
  async run(params: string[]): Promise<void> {
    this.command.outputHelp({ error: true });
    throw new CliUsageError(
      params.length > 0 ? `unknown command 'models ${params[0]}'` : 'models needs a command: publish, list, show, delete or sweep',
    );
  }
}
