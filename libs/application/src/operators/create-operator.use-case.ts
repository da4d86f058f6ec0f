import { Injectable } from '@nestjs/common';
import {
  type Actor,
  AuditLog,
  Clock,
  IdGenerator,
  type Operator,
  OperatorRepository,
  RandomSource,
  type Role,
  SecretHasher,
  generateOperatorToken,
} from '@svc/domain';
import { auditOperatorChange } from './operator-audit';
import { type OperatorWithToken, checkOperatorFields } from './operator-fields';

export interface CreateOperatorInput {
  readonly name: string;
  readonly email?: string | null;
  readonly role: Role;
  readonly actor: Actor;
}

/** Creates an operator (CONTRACT 21) with a new token, shown this once and stored only as a digest; audited with its actor. */
@Injectable()
export class CreateOperator {
  constructor(
    private readonly operators: OperatorRepository,
    private readonly hasher: SecretHasher,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(input: CreateOperatorInput): Promise<OperatorWithToken> {
    checkOperatorFields(input);
    const now = this.clock.now();
    const token = generateOperatorToken(this.random);
    const operator: Operator = {
      id: this.ids.newId('opr'),
      name: input.name.trim(),
      email: input.email ?? null,
      role: input.role,
      createdAt: now,
      lastUsedAt: null,
      disabledAt: null,
    };
    await this.operators.create({ operator, tokenDigest: this.hasher.digest(token) });
    await auditOperatorChange({ audit: this.audit, ids: this.ids }, 'operator.created', operator, input.actor, now);
    return { operator, token };
  }
}
