import { type ClaimedDelivery } from '@svc/domain';
import { SqlWebhookRepository } from '../typeorm/repositories/sql-webhook.repository';

/**
 * Webhooks on PostgreSQL: a claim is one UPDATE of the rows its subquery
 * locked with `FOR UPDATE SKIP LOCKED`, so instances claiming at once take
 * different deliveries without waiting on each other.
 */
export class PostgresWebhookRepository extends SqlWebhookRepository {
  async claimDue(owner: string, at: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const claimable = this.claimable(at);
    const n = Math.trunc(limit);
    const rows = await this.statement(
      `webhook_claim_${n}`,
      `UPDATE webhook_deliveries d SET lease_owner = ?, lease_expires_at = ?
        WHERE d.id IN (SELECT id FROM webhook_deliveries WHERE ${claimable.sql} ORDER BY next_attempt_at LIMIT ${n} FOR UPDATE SKIP LOCKED)
        RETURNING ${this.deliveryRows.selectList('d')}`,
    ).all([owner, this.instant(leaseUntil), ...claimable.params]);
    return this.claimed(owner, rows, at);
  }
}
