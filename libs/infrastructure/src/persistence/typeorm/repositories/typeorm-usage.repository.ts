import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { UsageRepository } from '@svc/domain';
import { DataSource } from 'typeorm';
import { PreparedQuery } from '../prepared-query';

const UPSERT =
  'INSERT INTO usage_counters (key_id, period, used) VALUES (?, ?, ?) ' +
  'ON CONFLICT (key_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';

/**
 * Counters in `usage_counters`. `tryConsume` is one statement on both SQLite
 * and PostgreSQL: an upsert whose update only applies while the new total stays
 * within the limit, returning the new total (no row returned: refused).
 * Each statement is prepared once (see PreparedQuery).
 */
@Injectable()
export class TypeOrmUsageRepository extends UsageRepository {
  private readonly used: PreparedQuery<{ used: string | number }>;
  private readonly consume: PreparedQuery<{ used: string | number }>;
  private readonly consumeUnlimited: PreparedQuery<{ used: string | number }>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.used = new PreparedQuery(dataSource, 'usage_used', 'SELECT used FROM usage_counters WHERE key_id = ? AND period = ?');
    this.consume = new PreparedQuery(dataSource, 'usage_consume', `${UPSERT} WHERE usage_counters.used + excluded.used <= ? RETURNING used`);
    this.consumeUnlimited = new PreparedQuery(dataSource, 'usage_consume_unlimited', `${UPSERT} RETURNING used`);
  }

  async usedIn(keyId: string, periodKey: string): Promise<number> {
    const row = await this.used.first([keyId, periodKey]);
    return row === undefined ? 0 : Number(row.used);
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
