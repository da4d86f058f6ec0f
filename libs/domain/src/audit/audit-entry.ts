import { type Actor } from './actor';

/** What the audit log records. Never a key's plaintext nor an installer token. */
export type AuditAction =
  | 'key.issued'
  | 'key.updated'
  | 'key.revoked'
  | 'key.rotated'
  | 'installer.token_issued'
  | 'model.created'
  | 'model.uploaded'
  | 'model.replaced'
  | 'model.deleted'
  | 'operator.created'
  | 'operator.updated'
  | 'operator.token_replaced'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted'
  | 'webhook.secret_replaced'
  | 'webhook.disabled'
  | 'webhook.tested'
  | 'webhook.delivery_retried'
  | 'device.deactivated';

/** Every audit action, for documentation and checks. */
export const AUDIT_ACTIONS: readonly AuditAction[] = [
  'key.issued',
  'key.updated',
  'key.revoked',
  'key.rotated',
  'installer.token_issued',
  'model.created',
  'model.uploaded',
  'model.replaced',
  'model.deleted',
  'operator.created',
  'operator.updated',
  'operator.token_replaced',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_replaced',
  'webhook.disabled',
  'webhook.tested',
  'webhook.delivery_retried',
  'device.deactivated',
];

/** Where an operator's change came from: the admin API or the CLI. */
export type OperatorChannel = 'api' | 'cli';

/** The channel of an actor's change: the CLI's own, the API's for everyone else. */
export function channelOf(actor: Actor): OperatorChannel {
  return actor.type === 'cli' ? 'cli' : 'api';
}

export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  readonly action: AuditAction;
  readonly keyId: string | null;
  readonly reason: string | null;
  readonly details: Readonly<Record<string, unknown>> | null;
  /** Who made the change (CONTRACT 21). */
  readonly actor: Actor;
}
