import { AnalyticsEvent } from '@svc/domain';
import { INSERT_EVENT, USED_IN_PERIOD, eventValues } from '../typeorm/portable-sql';
import { SqlAnalyticsEventRepository } from '../typeorm/repositories/sql-analytics-event.repository';
import { MySqlStatements } from './mysql-statements';
import { consumeOnce, openCounter } from './mysql-usage.repository';

/** DATETIME(3) text in UTC (the session's zone): exact to the millisecond whatever the driver's date handling. */
export const mysqlInstant = (at: Date): string => at.toISOString().slice(0, 23).replace('T', ' ');

/**
 * On MySQL / MariaDB an event and its consumption are one transaction on one
 * pooled connection: the conditional consumption (consumeOnce), then the
 * event; a refused consumption rolls back and stores nothing, and an event
 * that cannot be stored takes its consumption back with it. When nothing was
 * consumed because the period's counter does not exist yet, it is opened
 * outside the transaction and the transaction runs once more (its answer is final).
 */
export class MySqlAnalyticsEventRepository extends SqlAnalyticsEventRepository {
  constructor(private readonly mysql: MySqlStatements) {
    super(mysql);
  }

  protected async append(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    const values = eventValues(event, { success: (ok) => (ok ? 1 : 0), instant: mysqlInstant });
    if (cost === 0) {
      const session = this.mysql.session();
      await session.write(INSERT_EVENT, values);
      const [row] = await session.rows<{ used: string | number }>(USED_IN_PERIOD, [event.keyId, event.period]);
      return row === undefined ? 0 : Number(row.used);
    }
    const appended = await this.appendOnce(values, event, cost, limit);
    if (appended !== null) return appended;
    await openCounter(this.mysql.session(), event.keyId, event.period);
    return this.appendOnce(values, event, cost, limit);
  }

  private appendOnce(values: unknown[], event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    return this.mysql.transaction(async (session) => {
      const used = await consumeOnce(session, event.keyId, event.period, cost, limit);
      if (used === null) return { value: null, rollback: true };
      await session.write(INSERT_EVENT, values);
      return { value: used };
    });
  }
}
