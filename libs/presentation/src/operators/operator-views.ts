import {
  type Actor,
  type Operator,
  PERMISSION_NAMES,
  type Permission,
  type Role,
  permissionsOf,
  roleAllows,
  roleNeededFor,
} from '@svc/domain';

/** An audit entry's actor as the admin API shows it (CONTRACT 21): never a token or a digest. */
export type ActorView =
  | { readonly type: 'operator'; readonly operator_id: string; readonly name: string }
  | { readonly type: 'bootstrap' }
  | { readonly type: 'key'; readonly key_id: string }
  | { readonly type: 'cli'; readonly user: string }
  | { readonly type: 'system' };

export function actorViewOf(actor: Actor): ActorView {
  switch (actor.type) {
    case 'operator':
      return { type: 'operator', operator_id: actor.operatorId, name: actor.name };
    case 'key':
      return { type: 'key', key_id: actor.keyId };
    case 'cli':
      return { type: 'cli', user: actor.user };
    default:
      return { type: actor.type };
  }
}

/** An operator (CONTRACT 21): never a token or its digest. */
export interface OperatorView {
  readonly operator_id: string;
  readonly name: string;
  readonly email: string | null;
  readonly role: Role;
  readonly created_at: string;
  readonly last_used_at: string | null;
  readonly disabled_at: string | null;
}

export function operatorViewOf(operator: Operator): OperatorView {
  return {
    operator_id: operator.id,
    name: operator.name,
    email: operator.email,
    role: operator.role,
    created_at: operator.createdAt.toISOString(),
    last_used_at: operator.lastUsedAt?.toISOString() ?? null,
    disabled_at: operator.disabledAt?.toISOString() ?? null,
  };
}

/** A new operator, or a replaced token: the token shown this once. */
export interface OperatorWithTokenView extends OperatorView {
  readonly token: string;
}

export function operatorWithTokenViewOf(result: { operator: Operator; token: string }): OperatorWithTokenView {
  return { ...operatorViewOf(result.operator), token: result.token };
}

/** GET /admin/v1/me: the caller, its role and what the role may do (the console's one session context). */
export interface SessionView {
  readonly operator_id: string | null;
  readonly name: string;
  readonly email?: string | null;
  readonly role: Role;
  readonly permissions: readonly Permission[];
  /** Each permission the role lacks, with the lowest role that holds it: why an action is refused, before it is tried. */
  readonly denied: Readonly<Partial<Record<Permission, Role>>>;
}

export function sessionViewOf(operator: Operator | null): SessionView {
  const role: Role = operator === null ? 'owner' : operator.role;
  const denied = Object.fromEntries(
    PERMISSION_NAMES.filter((permission) => !roleAllows(role, permission)).map((permission) => [permission, roleNeededFor(permission)]),
  ) as Partial<Record<Permission, Role>>;
  const rights = { role, permissions: permissionsOf(role), denied };
  if (operator === null) return { operator_id: null, name: 'bootstrap', ...rights };
  return { operator_id: operator.id, name: operator.name, email: operator.email, ...rights };
}
