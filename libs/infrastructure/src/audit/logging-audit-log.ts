import { Logger } from '@nestjs/common';
import { type AuditEntry, type AuditFilter, AuditLog, actorFieldsOf, redactKeyShapedText } from '@svc/domain';

/**
 * Every audit entry is also one log line of its own event type, once it is
 * stored: `{ event: "audit", action, key_id, audit_id, at, actor, reason?, details? }`,
 * the actor as `GET /admin/v1/audit` names it (actorFieldsOf, CONTRACT 21)
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
