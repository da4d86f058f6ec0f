import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateOperator } from '@svc/application';
import { AppConfig } from '@svc/config';
import { AdminUnauthorizedError, type Permission } from '@svc/domain';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpEdgeError } from '../http/http-error';
import { AuthFailureLimiter } from '../api-key-auth/auth-failure-limiter';
import { AdminApiPresence } from './admin-api-presence';
import { AdminPrincipal, authenticatedAdmin } from './admin-principal';

/** Metadata key of the permission an admin route declares (through `@AdminAuth`). */
export const ADMIN_PERMISSION = 'svc:admin-permission';

/**
 * The admin routes' guard (CONTRACT 12, 21), in order: the admin API exists
 * (ADMIN_TOKEN set, or an operator enabled; else 404 as for any unknown path);
 * `Authorization: Bearer <token>` is ADMIN_TOKEN (compared in constant time
 * over digests: the bootstrap owner) or an enabled operator's current token
 * (read from the database on every request, so a disabled operator or a
 * replaced token is refused at once on every instance); failures go through
 * the brute-force limiter shared with key checks (429 past the allowance),
 * and while the client's address is blocked every admin authentication from
 * it is refused with that 429, the right token's too, before any token is
 * looked at; then the route's permission (403 FORBIDDEN naming the role needed).
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly bootstrapDigest: Buffer | null;
  private readonly permissions = new WeakMap<object, Permission>();

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
    private readonly operators: AuthenticateOperator,
    private readonly presence: AdminApiPresence,
    private readonly failures: AuthFailureLimiter,
  ) {
    this.bootstrapDigest = config.adminToken === null ? null : digest(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const permission = this.permissionOf(context);
    if (!(await this.presence.exists())) throw new HttpEdgeError('NOT_FOUND', 'Not found', 'No such endpoint');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.failures.refuseWhileBlocked(request.ip);
    const principal = await this.failures
      .watch(request.ip, () => this.authenticate(request))
      .catch((error: unknown) => {
        if (!(error instanceof AdminUnauthorizedError)) throw error;
        throw new HttpEdgeError('UNAUTHORIZED', error.description, error.hint, { 'www-authenticate': 'Bearer' });
      });
    authenticatedAdmin(request, principal);
    principal.require(permission);
    return true;
  }

  private async authenticate(request: FastifyRequest): Promise<AdminPrincipal> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new AdminUnauthorizedError();
    const token = match[1];
    if (this.bootstrapDigest !== null && timingSafeEqual(digest(token), this.bootstrapDigest)) return AdminPrincipal.bootstrap();
    return AdminPrincipal.of(await this.operators.execute(token));
  }

  private permissionOf(context: ExecutionContext): Permission {
    const handler = context.getHandler();
    let permission = this.permissions.get(handler);
    if (permission === undefined) {
      permission = this.reflector.getAllAndOverride<Permission | undefined>(ADMIN_PERMISSION, [handler, context.getClass()]);
      if (permission === undefined) throw new Error(`${context.getClass().name}.${handler.name} uses AdminGuard without @AdminAuth`);
      this.permissions.set(handler, permission);
    }
    return permission;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
