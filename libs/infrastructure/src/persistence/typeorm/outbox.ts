import { OutboxSignal } from '@svc/application';
import { type AuditEntry, type WebhookEvent } from '@svc/domain';
import { type DataSource, type EntityManager, type InsertQueryBuilder, type ObjectLiteral } from 'typeorm';
import { AuditEntryMapper } from './mappers/audit-entry.mapper';
import { WebhookMapper } from './mappers/webhook.mapper';
import { AuditEntryRecord } from './records/audit-entry.record';
import { WebhookEventRecord } from './records/webhook.records';

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
 * The rows an insert wrote, in `manager`'s transaction: TypeORM's structured
 * result (QueryRunner.query with `useStructuredResult`), whose `affected`
 * every driver fills for an insert, where InsertResult has no count (an
 * insert that ignores a duplicate writes 0).
 */
export async function rowsInserted(manager: EntityManager, insert: InsertQueryBuilder<ObjectLiteral>): Promise<number> {
  if (!manager.queryRunner) throw new Error('rowsInserted runs in a transaction (SqlStatements.transaction)');
  const [sql, params] = insert.getQueryAndParameters();
  return (await manager.queryRunner.query(sql, params, true)).affected ?? 0;
}

/**
 * The writes that put webhook events (and audit entries) into a change's
 * transaction: the one place a change's events become outbox rows.
 */
export class OutboxWrites {
  constructor(private readonly dataSource: DataSource) {}

  /** Each event as an outbox row, in `manager`'s transaction. */
  async events(manager: EntityManager, events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((event) => WebhookMapper.eventToRecord(event));
    await manager.createQueryBuilder().insert().into(WebhookEventRecord).values(rows).updateEntity(false).execute();
  }

  /** The event unless one of its id is recorded already (even by a transaction racing this one): true when this wrote it. */
  async eventOnce(manager: EntityManager, event: WebhookEvent): Promise<boolean> {
    const insert = manager.createQueryBuilder().insert().into(WebhookEventRecord).values(WebhookMapper.eventToRecord(event)).orIgnore();
    return (await rowsInserted(manager, insert.updateEntity(false))) === 1;
  }

  /**
   * The SQL and values of an event row (ignoring a duplicate id), as TypeORM writes them for the
   * database, for a statement run in a unit of work's transaction on the database's own connection.
   */
  eventInsertIgnoring(event: WebhookEvent): { sql: string; params: unknown[] } {
    const insert = this.dataSource.createQueryBuilder().insert().into(WebhookEventRecord).values(WebhookMapper.eventToRecord(event));
    const [sql, params] = insert.orIgnore().getQueryAndParameters();
    return { sql, params: params as unknown[] };
  }

  /** The entries in the audit log, in order, in `manager`'s transaction. */
  async audit(manager: EntityManager, entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((entry) => AuditEntryMapper.toRecord(entry));
    await manager.createQueryBuilder().insert().into(AuditEntryRecord).values(rows).updateEntity(false).execute();
  }
}
