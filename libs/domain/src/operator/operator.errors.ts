import { DomainError } from '../shared/domain-error';
import { type Permission, type Role, roleNeededFor } from './role';

/** No admin credential, a wrong one, a replaced token or a disabled operator: the same answer (CONTRACT 21). */
export class AdminUnauthorizedError extends DomainError {
  readonly code = 'UNAUTHORIZED' as const;
  constructor() {
    super('Unauthorized', 'Send Authorization: Bearer <admin token>');
  }
}

/**
 * A valid admin credential whose role lacks the permission; the message names
 * the role needed and, where the refusal depends on the request rather than the
 * route (a key's limit raised above its tier's), what in it needs that role.
 */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  readonly roleNeeded: Role;
  constructor(
    readonly permission: Permission,
    because?: string,
  ) {
    const role = roleNeededFor(permission);
    super('Forbidden', `This needs the ${role} role or higher (permission ${permission})${because ? `: ${because}` : ''}`);
    this.roleNeeded = role;
  }
}

export class OperatorNotFoundError extends DomainError {
  readonly code = 'OPERATOR_NOT_FOUND' as const;
  constructor() {
    super('Operator not found');
  }
}

/** The change would leave no enabled owner, and no ADMIN_TOKEN stands in for one. */
export class LastOwnerError extends DomainError {
  readonly code = 'LAST_OWNER' as const;
  constructor() {
    super('Last owner', 'The last enabled owner cannot be disabled or demoted; make another owner first');
  }
}
