import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type AnalyticsEvent } from '@svc/domain';
import {
  CounterMissing,
  type FieldEventDialect,
  SqlCounter,
  SqlEventsStore,
  SqlIdempotencyKeys,
  type TransactionSql,
} from '../typeorm/field-event-writes';
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
/**
 * MySQL's side of the statements of events from the field: a key's holder
 * read by a locking read, which sees the latest commits (a plain read sees
 * the transaction's snapshot under REPEATABLE READ), and the counter opened
 * outside the transaction (CounterMissing).
 */
const MYSQL_FIELD_EVENTS: FieldEventDialect = {
  ignoringDuplicates: (sql) => sql.replace(/^INSERT INTO/, 'INSERT IGNORE INTO'),
  forUpdate: ' FOR UPDATE',
  latestCommitted: ' LOCK IN SHARE MODE',
  integer: 'SIGNED',
  success: (ok) => (ok ? 1 : 0),
  instant: mysqlInstant,
};

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
      if (error instanceof CounterMissing) {
        await this.events.openCounter(error.licenseId, error.period);
        return this.once(work, true);
      }
      if (!(error instanceof CounterNotOpenedYet)) throw error;
      await this.events.openCounter(error.event.licenseId, error.event.period);
      return this.once(work, true);
    }
  }

  private async once<T>(work: (ports: TransactionalPorts) => Promise<T>, opened: boolean): Promise<T> {
    let outbox: TransactionalOutbox | undefined;
    const value = await this.mysql.sessionTransaction(async (session) => {
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
      const sql: TransactionSql = {
        write: async (text, params) => (await session.write(text, params)).affectedRows,
        rows: async <Row>(text: string, params: readonly unknown[]) => (await session.rows(text, params)) as Row[],
      };
      const single = this.events.inTransaction(session, opened);
      const store = new SqlEventsStore(sql, MYSQL_FIELD_EVENTS);
      const ports = {
        events: { appendConsuming: single.appendConsuming, storeAll: (events: readonly AnalyticsEvent[]) => store.storeAll(events) },
        usage: new SqlCounter(sql, MYSQL_FIELD_EVENTS, false),
        idempotencyKeys: new SqlIdempotencyKeys(sql, MYSQL_FIELD_EVENTS),
        outbox,
      };
      return { value: await work(ports) };
    });
    if (outbox && outbox.recorded > 0) this.bell.ring();
    return value;
  }
}
