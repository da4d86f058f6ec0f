import { ReplaceOperatorToken } from '@svc/application';
import { operatorWithTokenViewOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { cliActor } from '../shared/cli-actor';
import { CliCommand, type CommonOptions } from '../shared/cli-command';
import { operatorSummary, tokenNotice } from '../shared/summaries';

/** `operators token ID`: a new token, printed this once; the earlier one stops at once. */
@SubCommand({
  name: 'token',
  arguments: '<operator_id>',
  argsDescription: { operator_id: 'the operator id (opr_...)' },
  description: "replace an operator's token and print the new one once",
})
export class ReplaceOperatorTokenCommand extends CliCommand {
  constructor(private readonly operators: ReplaceOperatorToken) {
    super();
  }

  async run([operatorId]: string[], options: CommonOptions = {}): Promise<void> {
    const view = operatorWithTokenViewOf(await this.operators.execute(operatorId, cliActor()));
    this.print(options, view, () => `Replaced the token of\n${operatorSummary(view)}\n${tokenNotice(view.token)}`);
  }
}
