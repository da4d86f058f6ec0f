import { type AnalyticsEvent } from '@svc/domain';
import type { Statement, Transaction } from 'better-sqlite3';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { INSERT_EVENT, USED_IN_PERIOD, eventValues } from '../typeorm/portable-sql';
import { type EventDating, SqlAnalyticsEventRepository } from '../typeorm/repositories/sql-analytics-event.repository';
import { type SqliteStatements } from './sqlite-statements';

/** The license's counter of the period plus the cost (license id, period, cost): SQLite 3.35+ says ON CONFLICT … WHERE … RETURNING. */
const UPSERT_COUNTER =
  'INSERT INTO usage_counters (license_id, period, used) VALUES (?, ?, ?) ' +
  'ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';
/** Consumes within a limit (4th parameter), answering the new total; no row: refused, nothing changed. */
const CONSUME_WITHIN_LIMIT = `${UPSERT_COUNTER} WHERE usage_counters.used + excluded.used <= ? RETURNING used`;
const CONSUME_UNLIMITED = `${UPSERT_COUNTER} RETURNING used`;

/** The new total, and how many quota notices the step recorded. */
type Appended = { readonly total: number; readonly notices: number } | null;
type Append = (event: AnalyticsEvent, cost: number, limit: number | null) => Appended;

/**
 * On SQLite an event and its consumption are one synchronous better-sqlite3
 * transaction over prepared statements: nothing can interleave. BEGIN
 * IMMEDIATE: the write lock is taken (waiting out the busy timeout) before
 * the first read. A deferred transaction that read first could not upgrade
 * once another process (the CLI) had committed meanwhile: SQLite answers
 * SQLITE_BUSY at once, without waiting, and the event would fail with a 503.
 */
export class SqliteAnalyticsEventRepository extends SqlAnalyticsEventRepository {
  /** `received_at` is ISO 8601 text in UTC (`…T…Z`, written by this module): its day is its first ten characters. */
  protected readonly dating: EventDating = { dayOf: (column) => `substr(${column}, 1, 10)`, instant: (at) => at.toISOString() };
  private transaction?: Transaction<Append>;

  constructor(
    private readonly sqlite: SqliteStatements,
    bell: OutboxBell,
    private readonly outbox: OutboxWrites,
  ) {
    super(sqlite, bell);
  }

  protected async append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    this.transaction ??= this.prepareTransaction();
    const appended = this.transaction.immediate(event, cost, limit);
    if (appended !== null && appended.notices > 0) this.bell.ring();
    return appended === null ? null : appended.total;
  }

  private prepareTransaction(): Transaction<Append> {
    const db = this.sqlite.database;
    const consume: Statement = db.prepare(CONSUME_WITHIN_LIMIT);
    const consumeUnlimited: Statement = db.prepare(CONSUME_UNLIMITED);
    const used: Statement = db.prepare(USED_IN_PERIOD);
    const insert: Statement = db.prepare(INSERT_EVENT);
    const notices = new Map<string, Statement>();
    return db.transaction((event: AnalyticsEvent, cost: number, limit: number | null): Appended => {
      let total: number;
      if (cost > 0) {
        const row = (
          limit === null
            ? consumeUnlimited.get(event.licenseId, event.period, cost)
            : consume.get(event.licenseId, event.period, cost, limit)
        ) as { used: number | bigint } | undefined;
        if (!row) return null;
        total = Number(row.used);
      } else {
        const row = used.get(event.licenseId, event.period) as { used: number | bigint } | undefined;
        total = row ? Number(row.used) : 0;
      }
      insert.run(...eventValues(event, { success: (ok) => (ok ? 1 : 0), instant: (at) => at.toISOString() }));
      let recorded = 0;
      for (const notice of this.noticesOf(event, cost, limit, total)) {
        const { sql, params } = this.outbox.eventInsertIgnoring(notice);
        let statement = notices.get(sql);
        if (!statement) notices.set(sql, (statement = db.prepare(sql)));
        recorded += statement.run(...params).changes;
      }
      return { total, notices: recorded };
    });
  }
}
