import { DeleteModel } from '@svc/application';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { cliActor } from '../shared/cli-actor';

/** `models delete NAME`: DELETE /admin/v1/models/{name}; the stored file goes too. */
@SubCommand({
  name: 'delete',
  arguments: '<name>',
  argsDescription: { name: 'the model name' },
  description: 'delete a model and its stored file',
})
export class ModelsDeleteCommand extends CliCommand {
  constructor(private readonly deleteModel: DeleteModel) {
    super();
  }

  async run([name]: string[], options: CommonOptions = {}): Promise<void> {
    await this.deleteModel.execute({ name, actor: cliActor() });
    this.print(options, { name, deleted: true }, () => `Deleted model ${name} and its stored file.`);
  }
}
