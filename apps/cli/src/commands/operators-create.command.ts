import { CreateOperator } from '@svc/application';
import { InvalidRequestError, ROLES, isRole } from '@svc/domain';
import { operatorWithTokenViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { cliActor } from '../shared/cli-actor';
import { CliCommand, type CommonOptions } from '../shared/cli-command';
import { operatorSummary, tokenNotice } from '../shared/summaries';

interface CreateOperatorOptions extends CommonOptions {
  readonly name?: string;
  readonly role?: string;
  readonly email?: string;
}

/**
 * `operators create --name N --role R [--email E]` (CONTRACT 21), on the
 * database directly: how the first owner is made without ADMIN_TOKEN. The
 * token is printed this once. Audited with the CLI's OS user.
 */
@SubCommand({ name: 'create', description: 'create an operator and print its admin token once' })
export class CreateOperatorCommand extends CliCommand<CreateOperatorOptions> {
  constructor(private readonly operators: CreateOperator) {
    super();
  }

  async run(_params: string[], options: CreateOperatorOptions = {}): Promise<void> {
    if (options.name === undefined) throw new InvalidRequestError('--name is required');
    if (!isRole(options.role)) throw new InvalidRequestError(`--role must be one of ${ROLES.join(', ')}`);
    const view = operatorWithTokenViewOf(
      await this.operators.execute({ name: options.name, email: options.email, role: options.role, actor: cliActor() }),
    );
    this.print(options, view, () => `Created operator\n${operatorSummary(view)}\n${tokenNotice(view.token)}`);
  }

  @Option({ flags: '--name <name>', description: "the operator's name (required)" })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--role <role>', description: `${ROLES.join(', ')} (required)` })
  parseRole(value: string): string {
    return value;
  }

  @Option({ flags: '--email <email>', description: "the operator's e-mail" })
  parseEmail(value: string): string {
    return value;
  }
}
