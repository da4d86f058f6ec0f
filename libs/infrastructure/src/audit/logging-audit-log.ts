import { Logger } from '@nestjs/common';
import { AuditEntry, AuditLog } from '@svc/domain';

/** Key-shaped text (a key pasted into a revocation reason, say) never reaches the log. */
const KEY_SHAPED = /[A-Za-z0-9]+_(?:live|test)_[0-9A-Fa-f]{8,}|[0-9A-Fa-f]{32,}/gi;

/**
 * Every audit entry is also one log line of its own event type, once it is
 * stored: `{ event: "audit", action, key_id, audit_id, reason?, details? }`
 * (issuance, tier and limit changes, revocations, installer tokens). Entries
 * never hold a key or a token (AuditEntry's rule); the free-text reason is
 * scrubbed of key-shaped text all the same.
 */
export class LoggingAuditLog extends AuditLog {
  private readonly logger = new Logger('Audit');

  constructor(private readonly inner: AuditLog) {
    super();
  }

  async append(entry: AuditEntry): Promise<void> {
    await this.inner.append(entry);
    this.logger.log({
      msg: `audit: ${entry.action}`,
      event: 'audit',
      action: entry.action,
      key_id: entry.keyId,
      audit_id: entry.id,
      at: entry.at.toISOString(),
      ...(entry.reason !== null ? { reason: entry.reason.replace(KEY_SHAPED, '[REDACTED]') } : {}),
      ...(entry.details !== null ? { details: entry.details } : {}),
    });
  }

  list(filter: { keyId?: string; limit: number }): Promise<AuditEntry[]> {
    return this.inner.list(filter);
  }
}
