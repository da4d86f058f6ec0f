import { CONSUME_UNLIMITED, CONSUME_WITHIN_LIMIT } from '../portable-sql';
import { PreparedStatement, SqlStatements } from '../sql-statements';
import { SqlUsageRepository } from './sql-usage.repository';

/**
 * Consumption as one statement, for the databases that say `ON CONFLICT …
 * WHERE … RETURNING` (SQLite, PostgreSQL): an upsert whose update only
 * applies while the new total stays within the limit, returning the new
 * total (no row returned: refused). Bound by the SQLite and PostgreSQL modules.
 */
export class OnConflictUsageRepository extends SqlUsageRepository {
  private readonly consume: PreparedStatement<{ used: string | number }>;
  private readonly consumeUnlimited: PreparedStatement<{ used: string | number }>;

  constructor(statements: SqlStatements) {
    super(statements);
    this.consume = statements.prepare('usage_consume', CONSUME_WITHIN_LIMIT);
    this.consumeUnlimited = statements.prepare('usage_consume_unlimited', CONSUME_UNLIMITED);
  }

  async tryConsume(keyId: string, periodKey: string, cost: number, limit: number | null): Promise<number | null> {
    if (limit !== null && cost > limit) return null;
    const row =
      limit === null
        ? await this.consumeUnlimited.first([keyId, periodKey, cost])
        : await this.consume.first([keyId, periodKey, cost, limit]);
    return row === undefined ? null : Number(row.used);
  }
}
