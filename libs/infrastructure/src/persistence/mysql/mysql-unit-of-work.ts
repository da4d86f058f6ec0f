import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { TransactionalOutbox } from '../typeorm/transactional-outbox';
import { CounterNotOpenedYet, type MySqlAnalyticsEventRepository } from './mysql-analytics-event.repository';
import { type MySqlStatements, mysqlInstant } from './mysql-statements';

/**
 * A unit of work on MySQL / MariaDB: one transaction on one pooled connection
 * (MySqlStatements.transaction, the module's one way to open a transaction,
 * which runs a deadlock victim once more), its ports' prepared statements run
 * on that connection. A consumption before its period's counter exists rolls
 * the unit back, opens the counter on its own and runs the work once more
 * (CounterNotOpenedYet).
 */
export class MySqlUnitOfWork extends UnitOfWork {
  constructor(
    private readonly mysql: MySqlStatements,
    private readonly events: MySqlAnalyticsEventRepository,
    private readonly writes: OutboxWrites,
    private readonly bell: OutboxBell,
  ) {
    super();
  }

  async run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    try {
      return await this.once(work, false);
    } catch (error) {
      if (!(error instanceof CounterNotOpenedYet)) throw error;
      await this.events.openCounter(error.event);
      return this.once(work, true);
    }
  }

  private async once<T>(work: (ports: TransactionalPorts) => Promise<T>, opened: boolean): Promise<T> {
    let outbox: TransactionalOutbox | undefined;
    const value = await this.mysql.transaction(async (session) => {
      outbox = new TransactionalOutbox(
        this.writes,
        async (sql, params) =>
          (
            await session.write(
              sql,
              params.map((v) => (v instanceof Date ? mysqlInstant(v) : v)),
            )
          ).affectedRows,
      );
      return { value: await work({ events: this.events.inTransaction(session, opened), outbox }) };
    });
    if (outbox && outbox.recorded > 0) this.bell.ring();
    return value;
  }
}
