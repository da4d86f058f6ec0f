import { type ClaimedDelivery } from '@svc/domain';
import { CLAIM_CANDIDATES, SqlWebhookDeliveryQueue, firstOfEachEndpoint } from '../typeorm/repositories/sql-webhook-delivery-queue';
import { type SqliteStatements } from './sqlite-statements';

/**
 * Webhook deliveries on SQLite: a claim is one synchronous BEGIN IMMEDIATE transaction, in its turn
 * (the file's write lock held from its first read), so no other process can
 * claim between its read and its update: the earliest due of the endpoints
 * not skipped, the first of each endpoint taken (firstOfEachEndpoint).
 */
export class SqliteWebhookDeliveryQueue extends SqlWebhookDeliveryQueue {
  async claimDue(owner: string, at: Date, leaseUntil: Date, limit: number, skipEndpoints: readonly string[]): Promise<ClaimedDelivery[]> {
    const sqlite = this.statements as SqliteStatements;
    const db = sqlite.database;
    const claimable = this.claimable(at);
    const until = this.instant(leaseUntil);
    const claim = db.transaction(() => {
      const candidates = db
        .prepare(
          `SELECT id, endpoint_id FROM webhook_deliveries WHERE ${claimable.sql}
               AND endpoint_id NOT IN (SELECT value FROM json_each(?)) ORDER BY next_attempt_at LIMIT ${CLAIM_CANDIDATES}`,
        )
        .all(...claimable.params, JSON.stringify(skipEndpoints)) as Array<{ id: string; endpoint_id: string }>;
      const ids = firstOfEachEndpoint(candidates, Math.trunc(limit));
      if (ids.length === 0) return [];
      const taken = JSON.stringify(ids);
      const chosen = 'SELECT value FROM json_each(?)';
      db.prepare(`UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id IN (${chosen})`).run(owner, until, taken);
      return db
        .prepare(`SELECT ${this.deliveryRows.selectList('d')} FROM webhook_deliveries d WHERE d.id IN (${chosen})`)
        .all(taken) as Array<Record<string, unknown>>;
    });
    const rows = await sqlite.inTurn(() => claim.immediate());
    return this.claimed(owner, rows, at);
  }
}
