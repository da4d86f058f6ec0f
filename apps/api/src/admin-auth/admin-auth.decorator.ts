import { SetMetadata, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';
import { type Permission, roleNeededFor } from '@svc/domain';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { ADMIN_BEARER } from '../openapi/openapi';
import { ADMIN_PERMISSION, AdminGuard } from './admin.guard';

/** The OpenAPI extension naming a route's permission and the lowest role that holds it. */
export const PERMISSION_EXTENSION = 'x-permission';

/**
 * Everything an admin route needs, applied together (CONTRACT 21): the
 * permission it declares (from the domain's one table), the admin guard, and
 * the OpenAPI security, permission (`x-permission: { name, role }`) and the
 * codes of admin authentication. Every admin route uses it (a test walks them).
 */
export function AdminAuth(permission: Permission): MethodDecorator {
  const role = roleNeededFor(permission);
  return applyDecorators(
    SetMetadata(ADMIN_PERMISSION, permission),
    UseGuards(AdminGuard),
    ApiBearerAuth(ADMIN_BEARER),
    ApiExtension(PERMISSION_EXTENSION, { name: permission, role }),
    ApiErrors('UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMIT_EXCEEDED'),
  );
}
