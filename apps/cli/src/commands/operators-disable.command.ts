import { UpdateOperator } from '@svc/application';
import { operatorViewOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { cliActor } from '../shared/cli-actor';
import { CliCommand, type CommonOptions } from '../shared/cli-command';
import { operatorSummary } from '../shared/summaries';

/** `operators disable ID`: its token is refused at once on every instance (the last-owner rule holds). */
@SubCommand({
  name: 'disable',
  arguments: '<operator_id>',
  argsDescription: { operator_id: 'the operator id (opr_...)' },
  description: 'disable an operator: its token is refused at once',
})
export class DisableOperatorCommand extends CliCommand {
  constructor(private readonly operators: UpdateOperator) {
    super();
  }

  async run([operatorId]: string[], options: CommonOptions = {}): Promise<void> {
    const view = operatorViewOf(await this.operators.execute({ operatorId, change: { disabled: true }, actor: cliActor() }));
    this.print(options, view, () => `Disabled operator\n${operatorSummary(view)}`);
  }
}
