import { type ClaimedDelivery } from '@svc/domain';
import { CLAIM_CANDIDATES, SqlWebhookDeliveryQueue, firstOfEachEndpoint } from '../typeorm/repositories/sql-webhook-delivery-queue';
import { type MySqlStatements, mysqlInstant } from './mysql-statements';

/**
 * Webhook deliveries on MySQL / MariaDB: a claim is one transaction that locks the
 * earliest due rows of the endpoints not skipped with `FOR UPDATE SKIP
 * LOCKED` (rows another instance is claiming are passed over, not waited
 * for), leases the first of each endpoint (firstOfEachEndpoint), and reads
 * them back.
 */
export class MySqlWebhookDeliveryQueue extends SqlWebhookDeliveryQueue {
  async claimDue(owner: string, at: Date, leaseUntil: Date, limit: number, skipEndpoints: readonly string[]): Promise<ClaimedDelivery[]> {
    const mysql = this.statements as MySqlStatements;
    const claimable = this.claimable(at);
    const params = claimable.params.map((v) => (v instanceof Date ? mysqlInstant(v) : v));
    const until = mysqlInstant(leaseUntil);
    const skip = skipEndpoints.length === 0 ? '' : ` AND endpoint_id NOT IN (${skipEndpoints.map(() => '?').join(', ')})`;
    const rows = await mysql.sessionTransaction(async (session) => {
      const candidates = await session.rows<{ id: string; endpoint_id: string }>(
        `SELECT id, endpoint_id FROM webhook_deliveries WHERE ${claimable.sql}${skip}
          ORDER BY next_attempt_at LIMIT ${CLAIM_CANDIDATES} FOR UPDATE SKIP LOCKED`,
        [...params, ...skipEndpoints],
      );
      const list = firstOfEachEndpoint(candidates, Math.trunc(limit));
      if (list.length === 0) return { value: [] };
      const marks = list.map(() => '?').join(', ');
      await session.write(`UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id IN (${marks})`, [
        owner,
        until,
        ...list,
      ]);
      return {
        value: await session.rows<Record<string, unknown>>(
          `SELECT ${this.deliveryRows.selectList('d')} FROM webhook_deliveries d WHERE d.id IN (${marks})`,
          list,
        ),
      };
    });
    return this.claimed(owner, rows, at);
  }
}
