import {
  type AttemptRecord,
  type AuditEntry,
  type ClaimedDelivery,
  type DeliveryFilter,
  type OutboxDepth,
  type WebhookDelivery,
  type WebhookEndpoint,
  WebhookDeliveryQueue,
} from '@svc/domain';
import { type DataSource, type EntityManager, In, IsNull, type Repository } from 'typeorm';
import { type SecretsCipher } from '../../../crypto/secrets-cipher';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord } from '../records/webhook.records';
import { type SqlStatements } from '../sql-statements';
import { type WebhookStatements } from './webhook-statements';

/** The lease a claim takes is the claimer's; an attempt is written only while it still holds it. */
const CLAIMABLE = "d.status = 'pending' AND d.next_attempt_at <= :at AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= :at)";

/**
 * How many due deliveries a claim looks at (the earliest due, of endpoints
 * not skipped) to take the first of each endpoint from. An endpoint with
 * more due than this hides the others for one claim only: the caller claims
 * again while it has free slots, and skips that endpoint once its slots are full.
 */
const CLAIM_CANDIDATES = 100;

/** The deliveries a claim takes from its candidates (earliest due first): the first of each endpoint, at most `limit`. */
export function firstOfEachEndpoint(candidates: ReadonlyArray<{ id: string; endpointId: string }>, limit: number): string[] {
  const endpoints = new Set<string>();
  const taken: string[] = [];
  for (const candidate of candidates) {
    if (taken.length >= limit) break;
    if (endpoints.has(candidate.endpointId)) continue;
    endpoints.add(candidate.endpointId);
    taken.push(candidate.id);
  }
  return taken;
}

/**
 * Webhook deliveries on a SQL database (CONTRACT 20): each attempt written
 * only by the holder of its lease, with what it implies for the endpoint.
 * A claim is one transaction: the earliest due deliveries of the endpoints
 * not skipped, read with the database's claiming lock (`FOR UPDATE SKIP
 * LOCKED` on PostgreSQL and MySQL: instances claiming at once take different
 * deliveries without waiting on each other; SQLite's transaction holds the
 * file's write lock from its start), the first of each endpoint leased.
 */
export class SqlWebhookDeliveryQueue extends WebhookDeliveryQueue {
  private readonly events: Repository<WebhookEventRecord>;
  private readonly outbox: OutboxWrites;
  private readonly statements: SqlStatements;
  private readonly deliveries: Repository<WebhookDeliveryRecord>;

  constructor(
    dataSource: DataSource,
    private readonly sql: WebhookStatements,
    private readonly bell: OutboxBell,
    private readonly cipher: SecretsCipher,
  ) {
    super();
    this.statements = sql.statements;
    this.deliveries = dataSource.getRepository(WebhookDeliveryRecord);
    this.events = dataSource.getRepository(WebhookEventRecord);
    this.outbox = new OutboxWrites(dataSource);
  }

  async add(delivery: WebhookDelivery, audit: AuditEntry): Promise<void> {
    await this.sql.audited([audit], async (manager) => {
      const row = WebhookMapper.deliveryToRecord(delivery);
      await manager.createQueryBuilder().insert().into(WebhookDeliveryRecord).values(row).updateEntity(false).execute();
      await this.outbox.audit(manager, [audit]);
      return true;
    });
    this.bell.ring();
  }

  async claimDue(owner: string, at: Date, leaseUntil: Date, limit: number, skipEndpoints: readonly string[]): Promise<ClaimedDelivery[]> {
    const taken = await this.statements.transaction(async (manager) => {
      const due = manager
        .createQueryBuilder(WebhookDeliveryRecord, 'd')
        .select(['d.id', 'd.endpointId'])
        .where(CLAIMABLE, { at })
        .orderBy('d.nextAttemptAt', 'ASC')
        .addOrderBy('d.id', 'ASC')
        .limit(CLAIM_CANDIDATES);
      if (skipEndpoints.length > 0) due.andWhere('d.endpoint_id NOT IN (:...skip)', { skip: [...skipEndpoints] });
      const candidates = await this.statements.claimingRows(due).getMany();
      const ids = firstOfEachEndpoint(candidates, Math.trunc(limit));
      if (ids.length === 0) return [];
      await manager.update(WebhookDeliveryRecord, { id: In(ids) }, { leaseOwner: owner, leaseExpiresAt: leaseUntil });
      const records = await manager.find(WebhookDeliveryRecord, { where: { id: In(ids) }, order: { nextAttemptAt: 'ASC', id: 'ASC' } });
      // read before the claim commits, on its own connection (waiting for another while holding the claim's
      // locks could wait forever on a pool taken by writers waiting for those locks): an endpoint this instance
      // cannot read (its secret sealed under a SECRETS_KEY it lacks) fails the claim whole, so no lease is
      // taken and another instance claims at once
      return this.withEndpoints(manager, records);
    });
    return this.claimed(owner, taken, at);
  }

  /** The claimed deliveries with their endpoints (a claimed delivery whose endpoint is gone comes without one: `null`). */
  private async withEndpoints(
    manager: EntityManager,
    records: readonly WebhookDeliveryRecord[],
  ): Promise<Array<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint | null }>> {
    const ids = [...new Set(records.map((record) => record.endpointId))];
    const found = ids.length === 0 ? [] : await manager.findBy(WebhookEndpointRecord, { id: In(ids) });
    const endpoints = new Map(found.map((record) => [record.id, WebhookMapper.endpointToDomain(record, this.cipher)]));
    return records.map((record) => ({
      delivery: WebhookMapper.deliveryToDomain(record),
      endpoint: endpoints.get(record.endpointId) ?? null,
    }));
  }

  /** The deliveries the claim took (`claimDue`); those whose endpoint is gone are failed at once, not attempted. */
  private async claimed(
    owner: string,
    taken: ReadonlyArray<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint | null }>,
    at: Date,
  ): Promise<ClaimedDelivery[]> {
    const out: ClaimedDelivery[] = [];
    for (const { delivery, endpoint } of taken) {
      if (endpoint === null) {
        await this.recordAttempt({
          deliveryId: delivery.id,
          leaseOwner: owner,
          at,
          status: 'failed',
          nextAttemptAt: null,
          statusCode: null,
          error: 'the endpoint is gone',
          succeeded: false,
          disable: null,
          countsAsAttempt: false,
        });
      } else {
        out.push({ delivery, endpoint });
      }
    }
    return out;
  }

  async recordAttempt(attempt: AttemptRecord): Promise<boolean> {
    const audit = attempt.disable?.audit;
    return this.sql.audited(audit ? [audit] : [], async (manager) => {
      const counted = attempt.countsAsAttempt !== false;
      // only the holder of the lease writes the attempt
      const written = await manager
        .createQueryBuilder()
        .update(WebhookDeliveryRecord)
        .set({
          status: attempt.status,
          nextAttemptAt: attempt.nextAttemptAt,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          leaseOwner: null,
          leaseExpiresAt: null,
          ...(counted ? { lastAttemptAt: attempt.at, attempts: () => 'attempts + 1' } : {}),
        })
        .where('id = :id AND lease_owner = :owner', { id: attempt.deliveryId, owner: attempt.leaseOwner })
        .execute();
      if (written.affected !== 1) return false;
      if (!counted) return true;
      await this.endpointAfter(manager, attempt, audit);
      return true;
    });
  }

  /** What an attempt implies for its endpoint: failing since its first failure, or no longer; disabled (and audited) when asked. */
  private async endpointAfter(manager: EntityManager, attempt: AttemptRecord, audit: AuditEntry | undefined): Promise<void> {
    const endpointOf = { delivery: attempt.deliveryId };
    const ofTheDelivery = 'id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = :delivery)';
    const endpoints = () => manager.createQueryBuilder().update(WebhookEndpointRecord);
    if (attempt.succeeded) {
      await endpoints().set({ failingSince: null }).where(ofTheDelivery, endpointOf).execute();
    } else {
      await endpoints().set({ failingSince: attempt.at }).where(ofTheDelivery, endpointOf).andWhere('failing_since IS NULL').execute();
    }
    if (!attempt.disable || !audit) return;
    const disabled = await endpoints()
      .set({ disabledAt: attempt.at, disabledReason: attempt.disable.reason, updatedAt: attempt.at })
      .where(ofTheDelivery, endpointOf)
      .andWhere('disabled_at IS NULL')
      .execute();
    if (disabled.affected === 1) await this.outbox.audit(manager, [audit]);
  }

  async list(filter: DeliveryFilter): Promise<WebhookDelivery[]> {
    const query = this.deliveries
      .createQueryBuilder('d')
      .where('d.endpointId = :endpointId', { endpointId: filter.endpointId })
      .orderBy('d.createdAt', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(Math.trunc(filter.limit));
    if (filter.status !== undefined) query.andWhere('d.status = :status', { status: filter.status });
    if (filter.after !== undefined) {
      query.andWhere('(d.createdAt < :afterAt OR (d.createdAt = :afterAt AND d.id < :afterId))', {
        afterAt: filter.after.createdAt,
        afterId: filter.after.id,
      });
    }
    return (await query.getMany()).map((record) => WebhookMapper.deliveryToDomain(record));
  }

  async find(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const record = await this.deliveries.findOneBy({ id: deliveryId, endpointId });
    return record ? WebhookMapper.deliveryToDomain(record) : null;
  }

  async retry(endpointId: string, deliveryId: string, at: Date, audit: AuditEntry): Promise<boolean> {
    const retried = await this.sql.audited([audit], async (manager) => {
      const changed = await manager
        .createQueryBuilder()
        .update(WebhookDeliveryRecord)
        .set({ status: 'pending', nextAttemptAt: at, leaseOwner: null, leaseExpiresAt: null })
        .where('id = :deliveryId AND endpoint_id = :endpointId', { deliveryId, endpointId })
        .execute();
      if (changed.affected !== 1) return false;
      await this.outbox.audit(manager, [audit]);
      return true;
    });
    if (retried) this.bell.ring();
    return retried;
  }

  async depth(): Promise<OutboxDepth> {
    const [events, oldestEvent, deliveries, oldestDelivery] = await Promise.all([
      this.events.countBy({ fannedOutAt: IsNull() }),
      this.events.findOne({ where: { fannedOutAt: IsNull() }, order: { occurredAt: 'ASC' } }),
      this.deliveries.countBy({ status: 'pending' }),
      this.deliveries.findOne({ where: { status: 'pending' }, order: { createdAt: 'ASC' } }),
    ]);
    const oldest = [oldestEvent?.occurredAt, oldestDelivery?.createdAt].filter((d): d is Date => d instanceof Date);
    return {
      pending: events + deliveries,
      oldest: oldest.length === 0 ? null : new Date(Math.min(...oldest.map((d) => d.getTime()))),
    };
  }

  async prune(endedBefore: Date, limit: number): Promise<number> {
    return this.sql.boundedDelete(
      'webhook_deliveries',
      `webhook_deliveries.status IN ('succeeded', 'failed') AND webhook_deliveries.created_at < :before
        AND (webhook_deliveries.last_attempt_at IS NULL OR webhook_deliveries.last_attempt_at < :before)`,
      { before: endedBefore },
      limit,
    );
  }
}
