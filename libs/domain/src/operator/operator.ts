import { type Role } from './role';

/** A person or a system (billing, say) that calls the admin API with a token of its own (CONTRACT 21). */
export interface Operator {
  readonly id: string;
  readonly name: string;
  readonly email: string | null;
  readonly role: Role;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly disabledAt: Date | null;
}

/** What an operator change may set. */
export interface OperatorChange {
  readonly name?: string;
  readonly email?: string | null;
  readonly role?: Role;
  readonly disabled?: boolean;
}

/** `last_used_at` is written at most this often per operator, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether a use at `now` should be written as the operator's `last_used_at`. */
export function isLastUseStale(operator: Operator, now: Date): boolean {
  return operator.lastUsedAt === null || now.getTime() - operator.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}

export function isEnabledOwner(operator: Operator): boolean {
  return operator.role === 'owner' && operator.disabledAt === null;
}

/**
 * The last-owner rule (CONTRACT 21): a change that disables or demotes an
 * enabled owner is refused when no other enabled owner remains and no
 * ADMIN_TOKEN stands in as one.
 */
export function removesAnOwner(operator: Operator, change: OperatorChange): boolean {
  if (!isEnabledOwner(operator)) return false;
  return change.disabled === true || (change.role !== undefined && change.role !== 'owner');
}

/** Whether `ADMIN_TOKEN` is configured, standing in as an owner (the `bootstrap` actor); bound from configuration. */
export class BootstrapOwner {
  constructor(readonly configured: boolean) {}
}
