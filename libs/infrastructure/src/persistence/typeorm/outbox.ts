import { OutboxSignal } from '@svc/application';
import { type AuditEntry, type WebhookEvent } from '@svc/domain';
import { type DataSource } from 'typeorm';
import { AuditEntryMapper } from './mappers/audit-entry.mapper';
import { WebhookMapper } from './mappers/webhook.mapper';
import { RecordValues } from './record-values';
import { AuditEntryRecord } from './records/audit-entry.record';
import { WebhookEventRecord } from './records/webhook.records';
import { type SqlStatements, type WriteScript } from './sql-statements';

/**
 * The OutboxSignal of this process: the adapters ring it once a transaction
 * that recorded webhook events has committed, and the dispatcher of this
 * instance, listening through the port, wakes at once.
 */
export class OutboxBell extends OutboxSignal {
  private readonly listeners = new Set<() => void>();

  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ring(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The writes that put webhook events (and audit entries) into a change's
 * transaction: the one place a change's events become outbox rows.
 */
export class OutboxWrites {
  private readonly eventValues: RecordValues<WebhookEventRecord>;
  private readonly auditValues: RecordValues<AuditEntryRecord>;

  constructor(
    dataSource: DataSource,
    private readonly statements: SqlStatements,
  ) {
    this.eventValues = new RecordValues(dataSource, WebhookEventRecord);
    this.auditValues = new RecordValues(dataSource, AuditEntryRecord);
  }

  /** Each event as an outbox row. */
  *events(events: readonly WebhookEvent[]): WriteScript<void> {
    for (const event of events) {
      yield { sql: this.eventValues.insertSql(), params: this.eventValues.of(WebhookMapper.eventToRecord(event)) };
    }
  }

  /** The event unless one of its id is recorded already: true when this wrote it. */
  *eventOnce(event: WebhookEvent): WriteScript<boolean> {
    return (yield this.eventInsertIgnoring(event)) === 1;
  }

  /** The SQL and values of an event row, for a statement run in a unit of work's transaction (ignoring a duplicate id). */
  eventInsertIgnoring(event: WebhookEvent): { sql: string; params: unknown[] } {
    return {
      sql: this.statements.ignoringDuplicates(this.eventValues.insertSql()),
      params: this.eventValues.of(WebhookMapper.eventToRecord(event)),
    };
  }

  *audit(entries: readonly AuditEntry[]): WriteScript<void> {
    for (const entry of entries) {
      yield { sql: this.auditValues.insertSql(), params: this.auditValues.of(AuditEntryMapper.toRecord(entry)) };
    }
  }
}
