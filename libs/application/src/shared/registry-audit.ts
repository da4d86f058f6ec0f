import { type Actor, type AuditAction, type AuditLog, type IdGenerator } from '@svc/domain';

/** What an entry about something other than a key (a model, an operator) is appended with. */
export interface RegistryAuditDeps {
  readonly audit: AuditLog;
  readonly ids: IdGenerator;
}

/** Appends an audit entry that names no key: its action, who did it, when, and what changed. */
export async function appendRegistryEntry(
  deps: RegistryAuditDeps,
  action: AuditAction,
  details: Record<string, unknown>,
  actor: Actor,
  at: Date,
): Promise<void> {
  await deps.audit.append({ id: deps.ids.newId('aud'), at, action, keyId: null, reason: null, details, actor });
}
