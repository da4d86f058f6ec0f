import { Injectable } from '@nestjs/common';
import {
  type Actor,
  AuditLog,
  BootstrapOwner,
  Clock,
  IdGenerator,
  LastOwnerError,
  type Operator,
  type OperatorChange,
  OperatorNotFoundError,
  OperatorRepository,
  removesAnOwner,
} from '@svc/domain';
import { auditOperatorChange } from './operator-audit';
import { checkOperatorFields } from './operator-fields';

export interface UpdateOperatorInput {
  readonly operatorId: string;
  readonly change: OperatorChange;
  readonly actor: Actor;
}

/**
 * Changes an operator's name, e-mail, role or disabled state (CONTRACT 21), never leaving no enabled
 * owner unless ADMIN_TOKEN stands in (the repository judges that in the same statement, so two
 * demotions at once cannot both pass); audited with the actor and each field's from and to.
 */
@Injectable()
export class UpdateOperator {
  constructor(
    private readonly operators: OperatorRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly bootstrap: BootstrapOwner,
  ) {}

  async execute(input: UpdateOperatorInput): Promise<Operator> {
    checkOperatorFields(input.change);
    const before = await this.operators.findById(input.operatorId);
    if (!before) throw new OperatorNotFoundError();
    const change: OperatorChange = { ...input.change, ...(input.change.name !== undefined ? { name: input.change.name.trim() } : {}) };
    const keepAnOwner = !this.bootstrap.configured && removesAnOwner(before, change);
    const now = this.clock.now();
    const updated = await this.operators.update(before.id, change, now, keepAnOwner);
    if (updated === null) throw new OperatorNotFoundError();
    if (updated === 'last_owner') throw new LastOwnerError();
    await auditOperatorChange({ audit: this.audit, ids: this.ids }, 'operator.updated', updated, input.actor, now, {
      changes: changesOf(before, updated),
    });
    return updated;
  }
}

/** What a change did, field by field: `{ from, to }`. */
function changesOf(before: Operator, after: Operator): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ['name', 'email', 'role'] as const) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  if ((before.disabledAt === null) !== (after.disabledAt === null)) {
    changes.disabled = { from: before.disabledAt !== null, to: after.disabledAt !== null };
  }
  return changes;
}
