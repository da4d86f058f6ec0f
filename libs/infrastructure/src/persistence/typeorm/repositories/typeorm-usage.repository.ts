import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { UsageRepository } from '@svc/domain';
import { DataSource } from 'typeorm';

/**
 * Counters in `usage_counters`. `tryConsume` is one statement on both SQLite
 * and PostgreSQL: an upsert whose update only applies while the new total stays
 * within the limit, returning the new total (no row returned: refused).
 */
@Injectable()
export class TypeOrmUsageRepository extends UsageRepository {
  private readonly consumeSql: string;
  private readonly consumeUnlimitedSql: string;
  private readonly usedSql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    const p = dataSource.options.type === 'postgres' ? (n: number) => `$${n}` : () => '?';
    this.usedSql = `SELECT used FROM usage_counters WHERE key_id = ${p(1)} AND period = ${p(2)}`;
    const upsert =
      `INSERT INTO usage_counters (key_id, period, used) VALUES (${p(1)}, ${p(2)}, ${p(3)}) ` +
      `ON CONFLICT (key_id, period) DO UPDATE SET used = usage_counters.used + excluded.used`;
    this.consumeSql = `${upsert} WHERE usage_counters.used + excluded.used <= ${p(4)} RETURNING used`;
    this.consumeUnlimitedSql = `${upsert} RETURNING used`;
  }

  async usedIn(keyId: string, periodKey: string): Promise<number> {
    const rows: Array<{ used: string | number }> = await this.dataSource.query(this.usedSql, [keyId, periodKey]);
    return rows.length === 0 ? 0 : Number(rows[0].used);
  }

  async tryConsume(keyId: string, periodKey: string, cost: number, limit: number | null): Promise<number | null> {
    if (limit !== null && cost > limit) return null;
    const rows: Array<{ used: string | number }> =
      limit === null
        ? await this.dataSource.query(this.consumeUnlimitedSql, [keyId, periodKey, cost])
        : await this.dataSource.query(this.consumeSql, [keyId, periodKey, cost, limit]);
    return rows.length === 0 ? null : Number(rows[0].used);
  }
}
