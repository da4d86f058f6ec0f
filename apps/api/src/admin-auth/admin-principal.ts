import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { type Actor, BOOTSTRAP_ACTOR, ForbiddenError, type Operator, type Permission, type Role, roleAllows } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { RequestSlot } from '../http/request-slot';

/** Who called an admin route: an operator, or ADMIN_TOKEN (the bootstrap owner). */
export class AdminPrincipal {
  private constructor(
    /** Null for ADMIN_TOKEN. */
    readonly operator: Operator | null,
    readonly role: Role,
    readonly actor: Actor,
  ) {}

  static bootstrap(): AdminPrincipal {
    return new AdminPrincipal(null, 'owner', BOOTSTRAP_ACTOR);
  }

  static of(operator: Operator): AdminPrincipal {
    return new AdminPrincipal(operator, operator.role, { type: 'operator', operatorId: operator.id, name: operator.name });
  }

  /** 403 FORBIDDEN naming the role needed, unless the role holds the permission. */
  require(permission: Permission): void {
    if (!roleAllows(this.role, permission)) throw new ForbiddenError(permission);
  }
}

const principals = new RequestSlot<AdminPrincipal>('admin principal');

/** Records the request's admin principal (AdminGuard). */
export function authenticatedAdmin(request: FastifyRequest, principal: AdminPrincipal): void {
  principals.set(request, principal);
}

/** The caller of an admin route (declared with `@AdminAuth`). */
export const CurrentAdmin = createParamDecorator((_data: unknown, execution: ExecutionContext): AdminPrincipal => {
  const principal = principals.get(execution.switchToHttp().getRequest<FastifyRequest>());
  if (!principal) throw new Error('the admin principal was read on a route without @AdminAuth');
  return principal;
});
