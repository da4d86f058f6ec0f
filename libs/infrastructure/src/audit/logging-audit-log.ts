import { Logger } from '@nestjs/common';
import { type Actor, type AuditEntry, type AuditFilter, AuditLog, redactKeyShapedText } from '@svc/domain';

/**
 * Every audit entry is also one log line of its own event type, once it is
 * stored: `{ event: "audit", action, key_id, audit_id, at, actor, reason?, details? }`,
 * the actor as the database and `GET /admin/v1/audit` carry it (CONTRACT 21)
 * (issuance, tier and limit changes, revocations, installer tokens). Entries
 * never hold a key or a token (AuditEntry's rule); the free-text reason is
 * scrubbed of key-shaped text all the same (KeyRevocation already stores it scrubbed).
 */
export class AuditLines {
  private readonly logger = new Logger('Audit');

  /** The line of an entry, once it is stored (and committed, when written in a key change's transaction). */
  stored(entry: AuditEntry): void {
    this.logger.log({
      msg: `audit: ${entry.action}`,
      event: 'audit',
      action: entry.action,
      key_id: entry.keyId,
      audit_id: entry.id,
      at: entry.at.toISOString(),
      actor: actorFieldsOf(entry.actor),
      ...(entry.reason !== null ? { reason: redactKeyShapedText(entry.reason) } : {}),
      ...(entry.details !== null ? { details: entry.details } : {}),
    });
  }
}

/**
 * The actor in the log's snake_case, the shape `GET /admin/v1/audit` shows
 * (libs/presentation's actorViewOf, which infrastructure may not import):
 * never a token or a digest.
 */
function actorFieldsOf(actor: Actor): Record<string, string> {
  switch (actor.type) {
    case 'operator':
      return { type: 'operator', operator_id: actor.operatorId, name: actor.name };
    case 'key':
      return { type: 'key', key_id: actor.keyId };
    case 'cli':
      return { type: 'cli', user: actor.user };
    default:
      return { type: actor.type };
  }
}

/** The audit log whose appends are logged by AuditLines (key changes' entries are logged by the key repository). */
export class LoggingAuditLog extends AuditLog {
  constructor(
    private readonly inner: AuditLog,
    private readonly lines: AuditLines,
  ) {
    super();
  }

  async append(entry: AuditEntry): Promise<void> {
    await this.inner.append(entry);
    this.lines.stored(entry);
  }

  list(filter: AuditFilter): Promise<AuditEntry[]> {
    return this.inner.list(filter);
  }
}
