import { type AnalyticsEvent, type AnalyticsEventRepository } from '@svc/domain';
import { INSERT_EVENT, USED_IN_PERIOD, eventValues } from '../typeorm/portable-sql';
import { type EventDating, SqlAnalyticsEventRepository, refusedOutright } from '../typeorm/repositories/sql-analytics-event.repository';
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
 * Thrown inside a transaction whose consumption changed nothing before the
 * period's counter was opened: the transaction is rolled back, the counter
 * opened in a statement of its own (openCounter), and the transaction run
 * once more, whose answer is final.
 */
export class CounterNotOpenedYet extends Error {
  constructor(readonly event: AnalyticsEvent) {
    super('the period counter may not exist yet');
  }
}

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
 * event; a refused consumption stores nothing, and an event that cannot be
 * stored takes its consumption back with it. When nothing was consumed
 * because the period's counter does not exist yet, it is opened outside the
 * transaction (inside it, its insert into a gap another transaction's UPDATE
 * had locked deadlocks when several requests are a key's first use in the
 * period) and the transaction runs once more (its answer is final). In a unit
 * of work (MySqlUnitOfWork) the same step runs in the unit's transaction.
 */
export class MySqlAnalyticsEventRepository extends SqlAnalyticsEventRepository {
  /** `received_at` is DATETIME(3) text in UTC (mysqlInstant). */
  protected readonly dating: EventDating = { dayOf: (column) => `DATE_FORMAT(${column}, '%Y-%m-%d')`, instant: mysqlInstant };
  constructor(private readonly mysql: MySqlStatements) {
    super(mysql.dataSource);
  }

  protected async append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    if (cost === 0) return this.appendIn(this.mysql.session(), event, cost, limit, true);
    const once = (opened: boolean) =>
      this.mysql.sessionTransaction(async (session) => ({ value: await this.appendIn(session, event, cost, limit, opened) }));
    try {
      return await once(false);
    } catch (error) {
      if (!(error instanceof CounterNotOpenedYet)) throw error;
      await this.openCounter(event.licenseId, event.period);
      return once(true);
    }
  }

  /** The step on `session`, in the transaction open on it (MySqlUnitOfWork); `opened`: the counter was opened for this event. */
  inTransaction(session: MySqlSession, opened: boolean): Pick<AnalyticsEventRepository, 'appendConsuming'> {
    return {
      appendConsuming: async (event, cost, limit) =>
        refusedOutright(cost, limit) ? null : this.appendIn(session, event, cost, limit, opened),
    };
  }

  /** Opens a license's period counter in a statement of its own (CounterNotOpenedYet, CounterMissing). */
  async openCounter(licenseId: string, period: string): Promise<void> {
    await this.mysql.session().write(OPEN_COUNTER, [licenseId, period]);
  }

  private async appendIn(
    session: MySqlSession,
    event: AnalyticsEvent,
    cost: number,
    limit: number | null,
    opened: boolean,
  ): Promise<number | null> {
    const values = eventValues(event, { success: (ok) => (ok ? 1 : 0), instant: mysqlInstant });
    if (cost === 0) {
      await session.write(INSERT_EVENT, values);
      const [row] = await session.rows<{ used: string | number }>(USED_IN_PERIOD, [event.licenseId, event.period]);
      return row === undefined ? 0 : Number(row.used);
    }
    const total = await consumeOnce(session, event.licenseId, event.period, cost, limit);
    if (total === null) {
      // nothing changed: the limit refused, or the period's counter does not exist yet (open it and run again)
      if (!opened && (await session.rows(USED_IN_PERIOD, [event.licenseId, event.period])).length === 0) {
        throw new CounterNotOpenedYet(event);
      }
      return null;
    }
    await session.write(INSERT_EVENT, values);
    return total;
  }
}
