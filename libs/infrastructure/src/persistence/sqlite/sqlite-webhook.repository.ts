import { type ClaimedDelivery } from '@svc/domain';
import { SqlWebhookRepository } from '../typeorm/repositories/sql-webhook.repository';
import { type SqliteStatements } from './sqlite-statements';

/**
 * Webhooks on SQLite: a claim is one synchronous BEGIN IMMEDIATE transaction
 * (the file's write lock held from its first read), so no other process can
 * claim between its read and its update.
 */
export class SqliteWebhookRepository extends SqlWebhookRepository {
  async claimDue(owner: string, at: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const db = (this.statements as SqliteStatements).database;
    const claimable = this.claimable(at);
    const until = this.instant(leaseUntil);
    const rows = db
      .transaction(() => {
        const found = db
          .prepare(
            `SELECT ${this.deliveryRows.selectList('d')} FROM webhook_deliveries d WHERE ${claimable.sql} ORDER BY next_attempt_at LIMIT ${Math.trunc(limit)}`,
          )
          .all(...claimable.params) as Array<Record<string, unknown>>;
        const lease = db.prepare('UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id = ?');
        for (const row of found) lease.run(owner, until, row.id);
        return found;
      })
      .immediate();
    return this.claimed(owner, rows, at);
  }
}
