import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { TransactionalOutbox } from '../typeorm/transactional-outbox';
import { PostgresAnalyticsEventRepository } from './postgres-analytics-event.repository';
import { type PostgresStatements, numbered } from './postgres-statements';

/**
 * A unit of work on PostgreSQL: one READ COMMITTED transaction on one client
 * of TypeORM's pool (PostgresStatements.inTransaction, the module's one way
 * to open a transaction), its ports' prepared statements run on that client.
 * A consumption's row lock is held until the commit, so racing consumptions
 * of one license wait and each sees the total the previous one left: exactly
 * one crosses each threshold.
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
      return work({ events: new PostgresAnalyticsEventRepository(this.postgres.on(client)), outbox });
    });
    if (outbox && outbox.recorded > 0) this.bell.ring();
    return value;
  }
}
