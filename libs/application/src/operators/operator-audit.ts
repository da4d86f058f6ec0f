import { type Actor, type AuditAction, type Operator } from '@svc/domain';
import { type RegistryAuditDeps, appendRegistryEntry } from '../shared/registry-audit';

/** An audit entry for a change to an operator or its token (CONTRACT 21): who it is and what changed, never a token or digest. */
export function auditOperatorChange(
  deps: RegistryAuditDeps,
  action: Extract<AuditAction, `operator.${string}`>,
  operator: Operator,
  actor: Actor,
  at: Date,
  details: Record<string, unknown> = {},
): Promise<void> {
  return appendRegistryEntry(deps, action, { operator_id: operator.id, name: operator.name, role: operator.role, ...details }, actor, at);
}
