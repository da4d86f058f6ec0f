import { type ClaimedDelivery } from '@svc/domain';
import { CLAIM_CANDIDATES, SqlWebhookDeliveryQueue } from '../typeorm/repositories/sql-webhook-delivery-queue';

/**
 * Webhook deliveries on PostgreSQL: a claim is one UPDATE of the rows its subqueries
 * chose: the earliest due of the endpoints not skipped, locked with
 * `FOR UPDATE SKIP LOCKED` (so instances claiming at once take different
 * deliveries without waiting on each other), then the first of each
 * endpoint (`DISTINCT ON`), as firstOfEachEndpoint takes them on the others.
 */
export class PostgresWebhookDeliveryQueue extends SqlWebhookDeliveryQueue {
  async claimDue(owner: string, at: Date, leaseUntil: Date, limit: number, skipEndpoints: readonly string[]): Promise<ClaimedDelivery[]> {
    const claimable = this.claimable(at);
    const n = Math.trunc(limit);
    const rows = await this.statement(
      `webhook_claim_each_${n}`,
      `WITH candidates AS (
         SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
          WHERE ${claimable.sql} AND NOT (endpoint_id = ANY(?::varchar[]))
          ORDER BY next_attempt_at LIMIT ${CLAIM_CANDIDATES} FOR UPDATE SKIP LOCKED
       ), firsts AS (
         SELECT DISTINCT ON (endpoint_id) id, next_attempt_at FROM candidates ORDER BY endpoint_id, next_attempt_at, id
       )
       UPDATE webhook_deliveries d SET lease_owner = ?, lease_expires_at = ?
        WHERE d.id IN (SELECT id FROM firsts ORDER BY next_attempt_at, id LIMIT ${n})
        RETURNING ${this.deliveryRows.selectList('d')}`,
    ).all([...claimable.params, [...skipEndpoints], owner, this.instant(leaseUntil)]);
    return this.claimed(owner, rows, at);
  }
}
