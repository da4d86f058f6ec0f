import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type FieldEventDialect, SqlCounter, SqlEventsStore, SqlIdempotencyKeys, type TransactionSql } from '../typeorm/field-event-writes';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { TransactionalOutbox } from '../typeorm/transactional-outbox';
import { type SqliteAnalyticsEventRepository } from './sqlite-analytics-event.repository';
import { type SqliteStatements } from './sqlite-statements';

/** SQLite's side of the statements of events from the field (the transaction holds the file's write lock: no lock clauses). */
const SQLITE_FIELD_EVENTS: FieldEventDialect = {
  ignoringDuplicates: (sql) => sql.replace(/^INSERT INTO/, 'INSERT OR IGNORE INTO'),
  forUpdate: '',
  latestCommitted: '',
  integer: 'INTEGER',
  success: (ok) => (ok ? 1 : 0),
  instant: (at) => at.toISOString(),
};

/**
 * A unit of work on SQLite: one BEGIN IMMEDIATE transaction (the file's
 * write lock first, so another process on the file waits rather than
 * fails) in its turn among the process's writes to the file
 * (SqliteStatements.inTurn), so nothing else of this process writes while
 * it is open; its ports' statements run on the connection it is open on,
 * each prepared once. The consumption step is the one a single event runs
 * (SqliteAnalyticsEventRepository.appendInOpenTransaction).
 */
export class SqliteUnitOfWork extends UnitOfWork {
  constructor(
    private readonly sqlite: SqliteStatements,
    private readonly events: SqliteAnalyticsEventRepository,
    private readonly writes: OutboxWrites,
    private readonly bell: OutboxBell,
  ) {
    super();
  }

  run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    return this.sqlite.inTurn(() => this.runNow(work));
  }

  private async runNow<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    const db = this.sqlite.database;
    const sql: TransactionSql = {
      write: async (text, params) => this.sqlite.runWrite(text, params),
      rows: async <Row>(text: string, params: readonly unknown[]) => this.sqlite.runRead<Row>(text, params),
    };
    const outbox = new TransactionalOutbox(this.writes, sql.write);
    const store = new SqlEventsStore(sql, SQLITE_FIELD_EVENTS);
    db.exec('BEGIN IMMEDIATE');
    let value: T;
    try {
      value = await work({
        events: {
          appendConsuming: async (event, cost, limit) => this.events.appendInOpenTransaction(event, cost, limit),
          storeAll: (events) => store.storeAll(events),
        },
        usage: new SqlCounter(sql, SQLITE_FIELD_EVENTS, true),
        idempotencyKeys: new SqlIdempotencyKeys(sql, SQLITE_FIELD_EVENTS),
        outbox,
      });
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
    if (outbox.recorded > 0) this.bell.ring();
    return value;
  }
}
