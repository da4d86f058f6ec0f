import { type Operator, PERMISSION_NAMES, type Permission, type Role, permissionsOf, roleAllows, roleNeededFor } from '@svc/domain';
import type { OperatorResponse, OperatorWithTokenResponse, SessionResponse } from './operator.response';

/** Operators and the session as their response classes (operator.response.ts): never a token or its digest. */

export function operatorViewOf(operator: Operator): OperatorResponse {
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

export function operatorWithTokenViewOf(result: { operator: Operator; token: string }): OperatorWithTokenResponse {
  return { ...operatorViewOf(result.operator), token: result.token };
}

export function sessionViewOf(operator: Operator | null): SessionResponse {
  const role: Role = operator === null ? 'owner' : operator.role;
  const denied = Object.fromEntries(
    PERMISSION_NAMES.filter((permission) => !roleAllows(role, permission)).map((permission) => [permission, roleNeededFor(permission)]),
  ) as Partial<Record<Permission, Role>>;
  const rights = { role, permissions: permissionsOf(role), denied };
  if (operator === null) return { operator_id: null, name: 'bootstrap', ...rights };
  return { operator_id: operator.id, name: operator.name, email: operator.email, ...rights };
}
