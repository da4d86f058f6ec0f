import { type Actor, type AuditAction, type Model, channelOf } from '@svc/domain';
import { type RegistryAuditDeps, appendRegistryEntry } from '../shared/registry-audit';

/**
 * Appends an audit entry for a change to the catalogue (CONTRACT 7): the
 * model's name, version and checksum, and the operator channel it came
 * through (`api` or `cli`, from the actor).
 */
export function auditModelChange(
  deps: RegistryAuditDeps,
  action: Extract<AuditAction, `model.${string}`>,
  model: Model,
  actor: Actor,
  at: Date,
): Promise<void> {
  return appendRegistryEntry(
    deps,
    action,
    { model: model.name, version: model.version, checksum: model.checksum, channel: channelOf(actor) },
    actor,
    at,
  );
}
