import { type Actor, type AuditAction, type AuditLog, type IdGenerator, type Operator } from '@svc/domain';

/** An audit entry for a change to an operator or its token (CONTRACT 21): who it is and what changed, never a token or digest. */
export async function auditOperatorChange(
  deps: { readonly audit: AuditLog; readonly ids: IdGenerator },
  action: Extract<AuditAction, `operator.${string}`>,
  operator: Operator,
  actor: Actor,
  at: Date,
  details: Record<string, unknown> = {},
): Promise<void> {
  await deps.audit.append({
    id: deps.ids.newId('aud'),
    at,
    action,
    keyId: null,
    reason: null,
    details: { operator_id: operator.id, name: operator.name, role: operator.role, ...details },
    actor,
  });
}
