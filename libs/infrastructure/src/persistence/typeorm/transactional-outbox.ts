import { type WebhookEvent, type WebhookOutbox } from '@svc/domain';
import { type OutboxWrites } from './outbox';

/** One statement run in a unit of work's transaction, on its connection: the rows it changed. */
export type TransactionalWrite = (sql: string, params: readonly unknown[]) => Promise<number>;

/**
 * The outbox as a unit of work hands it to its work: each event an insert
 * in the unit's transaction. `recorded` counts the rows written, so that the
 * unit rings the OutboxBell once it has committed.
 */
export class TransactionalOutbox implements Pick<WebhookOutbox, 'recordOnce'> {
  recorded = 0;

  constructor(
    private readonly writes: OutboxWrites,
    private readonly write: TransactionalWrite,
  ) {}

  async recordOnce(event: WebhookEvent): Promise<boolean> {
    const { sql, params } = this.writes.eventInsertIgnoring(event);
    const written = await this.write(sql, params);
    this.recorded += written;
    return written === 1;
  }
}
