import { ListOperators } from '@svc/application';
import { operatorViewOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { CliCommand, type CommonOptions } from '../shared/cli-command';
import { operatorSummary } from '../shared/summaries';

/** `operators list`: every operator, oldest first; never a token or digest. */
@SubCommand({ name: 'list', description: 'list operators (never a token)' })
export class ListOperatorsCommand extends CliCommand {
  constructor(private readonly operators: ListOperators) {
    super();
  }

  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    const views = (await this.operators.execute()).map(operatorViewOf);
    this.print(options, { operators: views }, () => (views.length === 0 ? 'No operators.' : views.map(operatorSummary).join('\n')));
  }
}
