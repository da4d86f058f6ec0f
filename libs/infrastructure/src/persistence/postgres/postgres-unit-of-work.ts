import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type FieldEventDialect, SqlCounter, SqlEventsStore, SqlIdempotencyKeys, type TransactionSql } from '../typeorm/field-event-writes';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { TransactionalOutbox } from '../typeorm/transactional-outbox';
import { PostgresAnalyticsEventRepository } from './postgres-analytics-event.repository';
import { type PostgresStatements, numbered } from './postgres-statements';

/** PostgreSQL's side of the statements of events from the field: READ COMMITTED, each statement sees the latest commits. */
const POSTGRES_FIELD_EVENTS: FieldEventDialect = {
  ignoringDuplicates: (sql) => `${sql} ON CONFLICT DO NOTHING`,
  forUpdate: ' FOR UPDATE',
  latestCommitted: '',
  integer: 'BIGINT',
  success: (ok) => ok,
  instant: (at) => at,
};

/**
 * A unit of work on PostgreSQL: one READ COMMITTED transaction on one client
 * of TypeORM's pool (PostgresStatements.inTransaction), its ports' prepared
 * statements run on that client. A consumption's row lock is held until the
 * commit, so racing consumptions of one license wait and each sees the total
 * the previous one left: exactly one crosses each threshold.
 */
export class PostgresUnitOfWork extends UnitOfWork {
  constructor(
    private readonly postgres: PostgresStatements,
    private readonly writes: OutboxWrites,
    private readonly bell: OutboxBell,
  ) {
    super();
  }

  async run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    let outbox: TransactionalOutbox | undefined;
    const value = await this.postgres.inTransaction(async (client) => {
      outbox = new TransactionalOutbox(
        this.writes,
        async (sql, params) => (await client.query(numbered(sql), params as unknown[])).rowCount ?? 0,
      );
      const sql: TransactionSql = {
        write: async (text, params) => (await client.query(numbered(text), params as unknown[])).rowCount ?? 0,
        rows: async <Row>(text: string, params: readonly unknown[]) =>
          (await client.query(numbered(text), params as unknown[])).rows as Row[],
      };
      const single = new PostgresAnalyticsEventRepository(this.postgres.on(client));
      const store = new SqlEventsStore(sql, POSTGRES_FIELD_EVENTS);
      return work({
        events: {
          appendConsuming: (event, cost, limit) => single.appendConsuming(event, cost, limit),
          storeAll: (events) => store.storeAll(events),
        },
        usage: new SqlCounter(sql, POSTGRES_FIELD_EVENTS, true),
        idempotencyKeys: new SqlIdempotencyKeys(sql, POSTGRES_FIELD_EVENTS),
        outbox,
      });
    });
    if (outbox && outbox.recorded > 0) this.bell.ring();
    return value;
  }
}
