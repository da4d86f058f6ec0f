import { Injectable } from '@nestjs/common';
import {
  type Actor,
  AuditLog,
  BootstrapOwner,
  Clock,
  IdGenerator,
  InvalidRequestError,
  isPlainText,
  plainTextRule,
  LastOwnerError,
  type Operator,
  type OperatorChange,
  OperatorNotFoundError,
  OperatorRepository,
  RandomSource,
  type Role,
  SecretHasher,
  generateOperatorToken,
  isPlausibleEmail,
  isRole,
  removesAnOwner,
} from '@svc/domain';
import { auditOperatorChange } from './operator-audit';

export interface CreateOperatorInput {
  readonly name: string;
  readonly email?: string | null;
  readonly role: Role;
  readonly actor: Actor;
}

/** An operator with its token: the plaintext is returned here once and never stored or shown again. */
export interface OperatorWithToken {
  readonly operator: Operator;
  readonly token: string;
}

export interface UpdateOperatorInput {
  readonly operatorId: string;
  readonly change: OperatorChange;
  readonly actor: Actor;
}

const MAX_NAME = 200;

/**
 * Operators and their tokens (CONTRACT 21), for the admin API and the CLI:
 * create (the token shown once), list, show, change (name, e-mail, role,
 * disabled; never leaving no enabled owner unless ADMIN_TOKEN stands in),
 * and replace a token (the earlier one stops at once). Every change is
 * audited with its actor; no entry holds a token or a digest.
 */
@Injectable()
export class ManageOperators {
  constructor(
    private readonly operators: OperatorRepository,
    private readonly hasher: SecretHasher,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly bootstrap: BootstrapOwner,
  ) {}

  async create(input: CreateOperatorInput): Promise<OperatorWithToken> {
    checkFields(input);
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

  list(): Promise<Operator[]> {
    return this.operators.list();
  }

  async show(operatorId: string): Promise<Operator> {
    const operator = await this.operators.findById(operatorId);
    if (!operator) throw new OperatorNotFoundError();
    return operator;
  }

  async update(input: UpdateOperatorInput): Promise<Operator> {
    checkFields(input.change);
    const before = await this.show(input.operatorId);
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

  async replaceToken(operatorId: string, actor: Actor): Promise<OperatorWithToken> {
    const operator = await this.show(operatorId);
    const token = generateOperatorToken(this.random);
    if (!(await this.operators.replaceToken(operator.id, this.hasher.digest(token)))) throw new OperatorNotFoundError();
    await auditOperatorChange({ audit: this.audit, ids: this.ids }, 'operator.token_replaced', operator, actor, this.clock.now());
    return { operator, token };
  }
}

function checkFields(fields: { name?: string; email?: string | null; role?: unknown }): void {
  if (fields.name !== undefined && (typeof fields.name !== 'string' || fields.name.trim() === '' || fields.name.length > MAX_NAME)) {
    throw new InvalidRequestError(`name must be a non-empty string of at most ${MAX_NAME} characters`);
  }
  if (fields.name !== undefined && !isPlainText(fields.name)) throw new InvalidRequestError(plainTextRule('name'));
  if (fields.email !== undefined && fields.email !== null && !isPlausibleEmail(fields.email)) {
    throw new InvalidRequestError('email must be an e-mail address');
  }
  if (fields.role !== undefined && !isRole(fields.role)) throw new InvalidRequestError('role must be one of viewer, support, admin, owner');
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
