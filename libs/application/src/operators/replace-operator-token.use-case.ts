import { Injectable } from '@nestjs/common';
import {
  type Actor,
  AuditLog,
  Clock,
  IdGenerator,
  OperatorNotFoundError,
  OperatorRepository,
  RandomSource,
  SecretHasher,
  generateOperatorToken,
} from '@svc/domain';
import { auditOperatorChange } from './operator-audit';
import { type OperatorWithToken } from './operator-fields';

/** Gives an operator a new token (CONTRACT 21), shown this once; the earlier one stops at once. Audited with the actor. */
@Injectable()
export class ReplaceOperatorToken {
  constructor(
    private readonly operators: OperatorRepository,
    private readonly hasher: SecretHasher,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(operatorId: string, actor: Actor): Promise<OperatorWithToken> {
    const operator = await this.operators.findById(operatorId);
    if (!operator) throw new OperatorNotFoundError();
    const token = generateOperatorToken(this.random);
    if (!(await this.operators.replaceToken(operator.id, this.hasher.digest(token)))) throw new OperatorNotFoundError();
    await auditOperatorChange({ audit: this.audit, ids: this.ids }, 'operator.token_replaced', operator, actor, this.clock.now());
    return { operator, token };
  }
}
