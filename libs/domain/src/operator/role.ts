/**
 * Operators' roles (CONTRACT 21), each allowing all that the one before allows.
 * `owner` is the highest: `ADMIN_TOKEN` acts as one (the `bootstrap` actor).
 */
export const ROLES = ['viewer', 'support', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * What an admin call may do, and the lowest role allowed to: the one table of
 * permissions. Every admin route declares one of these (a test walks the
 * routes), the docs' role table is generated from it, and webhook routes
 * (CONTRACT 20) take theirs from here too.
 */
export const PERMISSIONS = {
  'session.read': { role: 'viewer', what: 'see who is signed in and with which role (GET /me)' },
  'keys.read': { role: 'viewer', what: 'search and show keys (never a key or its digest)' },
  'usage.read': { role: 'viewer', what: "read a key's usage, its days and the overview" },
  'audit.read': { role: 'viewer', what: 'read the audit log' },
  'models.read': { role: 'viewer', what: 'list and show model records' },
  'webhooks.read': {
    role: 'viewer',
    what: 'list and show webhook endpoints and their deliveries (never a secret; below admin, each query value of an address shows as ***)',
  },
  'keys.revoke': { role: 'support', what: 'revoke a key' },
  'keys.rotate': { role: 'support', what: 'rotate a key' },
  'keys.update': {
    role: 'support',
    what: "change a key's expiry, monthly limit and its license's max_devices, within its tier: lower a limit, extend by at most the default lifetime",
  },
  'devices.deactivate': { role: 'support', what: "deactivate a device of a key's license (frees its seat)" },
  'webhooks.test': { role: 'support', what: 'send a webhook test event' },
  'webhooks.retry': { role: 'support', what: 'retry a webhook delivery' },
  'keys.issue': { role: 'admin', what: 'issue keys' },
  'keys.change_tier': { role: 'admin', what: "change a key's tier" },
  'keys.raise_limit': {
    role: 'admin',
    what: "raise a key's monthly limit above its tier's, or make it unlimited; raise its license's max_devices above its tier's",
  },
  'keys.extend_expiry': { role: 'admin', what: "move a key's expiry more than the default lifetime (365 days) past its current one" },
  'models.write': { role: 'admin', what: 'register, upload, replace and delete models' },
  'webhooks.write': { role: 'admin', what: 'create, change and delete webhook endpoints and their secrets' },
  'operators.manage': { role: 'owner', what: 'list, create, change and disable operators and replace their tokens' },
} as const satisfies Record<string, { readonly role: Role; readonly what: string }>;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(PERMISSIONS, value);
}

/** The lowest role that holds the permission. */
export function roleNeededFor(permission: Permission): Role {
  return PERMISSIONS[permission].role;
}

/** Whether a role holds a permission: its rank is at least the permission's role's. */
export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(roleNeededFor(permission));
}

/** Every permission a role holds, in the table's order. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSION_NAMES.filter((permission) => roleAllows(role, permission));
}
