import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type FieldEventDialect, SqlCounter, SqlEventsStore, SqlIdempotencyKeys, type TransactionSql } from '../typeorm/field-event-writes';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { TransactionalOutbox } from '../typeorm/transactional-outbox';
import { type SqliteAnalyticsEventRepository } from './sqlite-analytics-event.repository';
import { type SqliteStatements } from './sqlite-statements';

/**
 * A unit of work on SQLite: one BEGIN IMMEDIATE transaction on TypeORM's own
 * better-sqlite3 connection (the write lock taken first, as every write of
 * this module takes it), its ports' statements run synchronously in it.
 * The units of this process run one at a time. The connection is the
 * process's one: a statement another request runs between the work's steps
 * (its awaits) joins the unit's transaction, as better-sqlite3's own
 * transactions then nest in it as savepoints; the work's steps are
 * synchronous, so only microtasks fall between them. Inside a transaction
 * already open on the connection, the unit is a savepoint of it. TypeORM's `DataSource.transaction` is not used:
 * on SQLite it shares one query runner between callers and begins deferred.
 */
/** SQLite's side of the statements of events from the field: the unit holds the database, so no lock clauses. */
const SQLITE_FIELD_EVENTS: FieldEventDialect = {
  ignoringDuplicates: (sql) => sql.replace(/^INSERT INTO/, 'INSERT OR IGNORE INTO'),
  forUpdate: '',
  latestCommitted: '',
  integer: 'INTEGER',
  success: (ok) => (ok ? 1 : 0),
  instant: (at) => at.toISOString(),
};

export class SqliteUnitOfWork extends UnitOfWork {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sqlite: SqliteStatements,
    private readonly events: SqliteAnalyticsEventRepository,
    private readonly writes: OutboxWrites,
    private readonly bell: OutboxBell,
  ) {
    super();
  }

  run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    const mine = this.turn.then(() => this.runNow(work));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  private async runNow<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    const db = this.sqlite.database;
    const nested = db.inTransaction;
    const outbox = new TransactionalOutbox(this.writes, async (sql, params) => this.sqlite.runWrite(sql, params));
    db.exec(nested ? 'SAVEPOINT unit_of_work' : 'BEGIN IMMEDIATE');
    let value: T;
    try {
      const sql: TransactionSql = {
        write: async (text, params) => this.sqlite.runWrite(text, params),
        rows: async <Row>(text: string, params: readonly unknown[]) => db.prepare(text).all(...params) as Row[],
      };
      const store = new SqlEventsStore(sql, SQLITE_FIELD_EVENTS);
      value = await work({
        events: { appendConsuming: this.events.inOpenTransaction().appendConsuming, storeAll: (events) => store.storeAll(events) },
        usage: new SqlCounter(sql, SQLITE_FIELD_EVENTS, true),
        idempotencyKeys: new SqlIdempotencyKeys(sql, SQLITE_FIELD_EVENTS),
        outbox,
      });
      db.exec(nested ? 'RELEASE unit_of_work' : 'COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec(nested ? 'ROLLBACK TO unit_of_work; RELEASE unit_of_work' : 'ROLLBACK');
      throw error;
    }
    if (outbox.recorded > 0) this.bell.ring();
    return value;
  }
}
