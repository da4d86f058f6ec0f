import { ShowApiKey } from '@svc/application';
import { keyViewOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { keySummary } from '../shared/summaries';

/** `keys show KEY_ID`: GET /admin/v1/keys/{key_id}. Shows the prefix, never the key. */
@SubCommand({
  name: 'show',
  arguments: '<key_id>',
  argsDescription: { key_id: 'the key id (key_...)' },
  description: "show a key's state, terms and this period's quota",
})
export class ShowKeyCommand extends CliCommand {
  constructor(private readonly showKey: ShowApiKey) {
    super();
  }

  async run([keyId]: string[], options: CommonOptions = {}): Promise<void> {
    const view = keyViewOf(await this.showKey.execute(keyId));
    this.print(options, view, () => keySummary(view));
  }
}
