import { type AnalyticsEvent } from '@svc/domain';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { INSERT_EVENT, USED_IN_PERIOD, eventValues } from '../typeorm/portable-sql';
import { type EventDating, SqlAnalyticsEventRepository } from '../typeorm/repositories/sql-analytics-event.repository';
import { type MySqlStatements, type MySqlSession, mysqlInstant } from './mysql-statements';

/**
 * Adds the cost only while the new total stays within the limit, handing the
 * new total back through `LAST_INSERT_ID(expr)` (the OK packet's insert id, so
 * no second read): MySQL has no RETURNING and no conditional upsert. The
 * numbers are cast, since mysql2 binds a number as DOUBLE and `used + ?`
 * would be floating point past 2^53.
 */
const CONSUME = 'UPDATE usage_counters SET used = LAST_INSERT_ID(used + CAST(? AS SIGNED)) WHERE license_id = ? AND period = ?';
const WITHIN_LIMIT = ' AND used + CAST(? AS SIGNED) <= CAST(? AS SIGNED)';
/** Opens the license's counter of the period at 0; a no-op when it exists (an unknown license still fails its reference). */
const OPEN_COUNTER = 'INSERT INTO usage_counters (license_id, period, used) VALUES (?, ?, 0) ON DUPLICATE KEY UPDATE used = used';

/**
 * One conditional consumption: the new total, or null when nothing changed
 * (the counter does not exist yet, or the limit refuses). Never read, compare
 * and write: instances racing are serialised by the UPDATE's own row lock.
 */
async function consumeOnce(
  session: MySqlSession,
  licenseId: string,
  period: string,
  cost: number,
  limit: number | null,
): Promise<number | null> {
  const header =
    limit === null
      ? await session.write(CONSUME, [cost, licenseId, period])
      : await session.write(CONSUME + WITHIN_LIMIT, [cost, licenseId, period, cost, limit]);
  return header.affectedRows === 1 ? Number(header.insertId) : null;
}

/**
 * On MySQL / MariaDB an event and its consumption are one transaction on one
 * pooled connection: the conditional consumption (consumeOnce), then the
 * event; a refused consumption rolls back and stores nothing, and an event
 * that cannot be stored takes its consumption back with it. When nothing was
 * consumed because the period's counter does not exist yet, it is opened
 * outside the transaction and the transaction runs once more (its answer is final).
 */
export class MySqlAnalyticsEventRepository extends SqlAnalyticsEventRepository {
  /** `received_at` is DATETIME(3) text in UTC (mysqlInstant). */
  protected readonly dating: EventDating = { dayOf: (column) => `DATE_FORMAT(${column}, '%Y-%m-%d')`, instant: mysqlInstant };
  constructor(
    private readonly mysql: MySqlStatements,
    bell: OutboxBell,
    private readonly outbox: OutboxWrites,
  ) {
    super(mysql, bell);
  }

  protected async append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    const values = eventValues(event, { success: (ok) => (ok ? 1 : 0), instant: mysqlInstant });
    if (cost === 0) {
      const session = this.mysql.session();
      await session.write(INSERT_EVENT, values);
      const [row] = await session.rows<{ used: string | number }>(USED_IN_PERIOD, [event.licenseId, event.period]);
      return row === undefined ? 0 : Number(row.used);
    }
    const appended = await this.appendOnce(values, event, cost, limit);
    if (appended !== null) return appended;
    // in a statement of its own: inside the transaction its insert into a gap another transaction's UPDATE
    // had locked deadlocks when several requests are a key's first use in the period
    await this.mysql.session().write(OPEN_COUNTER, [event.licenseId, event.period]);
    return this.appendOnce(values, event, cost, limit);
  }

  /** The quota notices the consumption crossed go in the same transaction (a write only when one is crossed). */
  private async appendOnce(values: unknown[], event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    let recorded = 0;
    const used = await this.mysql.transaction(async (session) => {
      recorded = 0;
      const total = await consumeOnce(session, event.licenseId, event.period, cost, limit);
      if (total === null) return { value: null, rollback: true };
      await session.write(INSERT_EVENT, values);
      for (const notice of this.noticesOf(event, cost, limit, total)) {
        const { sql, params } = this.outbox.eventInsertIgnoring(notice);
        recorded += (
          await session.write(
            sql,
            params.map((v) => (v instanceof Date ? mysqlInstant(v) : v)),
          )
        ).affectedRows;
      }
      return { value: total };
    });
    if (recorded > 0) this.bell.ring();
    return used;
  }
}
