import { Injectable } from '@nestjs/common';
import { UsageRepository } from '@svc/domain';
import { USED_IN_PERIOD } from '../portable-sql';
import { PreparedStatement, SqlStatements } from '../sql-statements';

/**
 * Counters in `usage_counters`, read with portable SQL on every database.
 * They are consumed only together with an event, in each database's own
 * atomic step (its AnalyticsEventRepository).
 */
@Injectable()
export class SqlUsageRepository extends UsageRepository {
  private readonly used: PreparedStatement<{ used: string | number }>;

  constructor(statements: SqlStatements) {
    super();
    this.used = statements.prepare('usage_used', USED_IN_PERIOD);
  }

  async usedIn(licenseId: string, periodKey: string): Promise<number> {
    const row = await this.used.first([licenseId, periodKey]);
    return row === undefined ? 0 : Number(row.used);
  }
}
