import { type Actor, type AuditAction, type AuditLog, type IdGenerator, type Model, channelOf } from '@svc/domain';

/**
 * Appends an audit entry for a change to the catalogue (CONTRACT 7): the
 * model's name, version and checksum, and the operator channel it came
 * through (`api` or `cli`, from the actor).
 */
export async function auditModelChange(
  deps: { readonly audit: AuditLog; readonly ids: IdGenerator },
  action: Extract<AuditAction, `model.${string}`>,
  model: Model,
  actor: Actor,
  at: Date,
): Promise<void> {
  await deps.audit.append({
    id: deps.ids.newId('aud'),
    at,
    action,
    keyId: null,
    reason: null,
    details: { model: model.name, version: model.version, checksum: model.checksum, channel: channelOf(actor) },
    actor,
  });
}
