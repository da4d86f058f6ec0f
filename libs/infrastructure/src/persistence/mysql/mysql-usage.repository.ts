import { SqlUsageRepository } from '../typeorm/repositories/sql-usage.repository';
import { MySqlSession, MySqlStatements } from './mysql-statements';

const CONSUME = 'UPDATE usage_counters SET used = LAST_INSERT_ID(used + ?) WHERE key_id = ? AND period = ?';
const WITHIN_LIMIT = ' AND used + ? <= ?';
/** Makes sure the period's counter exists, changing nothing when it does (an unknown key still fails its reference). */
const OPEN_COUNTER = 'INSERT INTO usage_counters (key_id, period, used) VALUES (?, ?, 0) ON DUPLICATE KEY UPDATE used = used';

/**
 * Consumption on MySQL / MariaDB, which have no `RETURNING` and no
 * conditional upsert: one conditional UPDATE that adds the cost only while
 * the new total stays within the limit, and hands the new total back through
 * `LAST_INSERT_ID(expr)` (the OK packet's insert id, so no second read). One
 * changed row: consumed, the new total. None: the counter does not exist yet
 * or the limit refuses (null). Never read, compare and write: two instances
 * racing are serialised by the UPDATE's own row lock. `cost > 0` always.
 */
export async function consumeOnce(session: MySqlSession, keyId: string, period: string, cost: number, limit: number | null): Promise<number | null> {
  const header =
    limit === null
      ? await session.write(CONSUME, [cost, keyId, period])
      : await session.write(CONSUME + WITHIN_LIMIT, [cost, keyId, period, cost, limit]);
  return header.affectedRows === 1 ? Number(header.insertId) : null;
}

/**
 * Opens the period's counter at 0 (a no-op when it exists), in a statement of
 * its own: never inside the consuming transaction, where its insert into a
 * gap another transaction's UPDATE had locked could deadlock.
 */
export async function openCounter(session: MySqlSession, keyId: string, period: string): Promise<void> {
  await session.write(OPEN_COUNTER, [keyId, period]);
}

/** Usage on MySQL: consume; when nothing changed, open the counter and consume once more, whose answer is final. */
export class MySqlUsageRepository extends SqlUsageRepository {
  constructor(private readonly mysql: MySqlStatements) {
    super(mysql);
  }

  async tryConsume(keyId: string, periodKey: string, cost: number, limit: number | null): Promise<number | null> {
    if (limit !== null && cost > limit) return null;
    if (cost === 0) return this.usedIn(keyId, periodKey);
    const session = this.mysql.session();
    const consumed = await consumeOnce(session, keyId, periodKey, cost, limit);
    if (consumed !== null) return consumed;
    await openCounter(session, keyId, periodKey);
    return consumeOnce(session, keyId, periodKey, cost, limit);
  }
}
