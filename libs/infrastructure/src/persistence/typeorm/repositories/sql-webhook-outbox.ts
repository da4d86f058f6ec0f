import {
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookEvent,
  type WebhookEventType,
  WebhookOutbox,
  WEBHOOK_EVENT_TYPES,
} from '@svc/domain';
import { type DataSource, IsNull, type Repository } from 'typeorm';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { WebhookDeliveryRecord, WebhookEventRecord } from '../records/webhook.records';
import { type WebhookStatements } from './webhook-statements';

/**
 * The webhook outbox on a SQL database (CONTRACT 20): events recorded on
 * their own (those a change records go in the change's transaction:
 * OutboxWrites, a unit of work), fanned out into deliveries by one instance
 * per event (a conditional UPDATE decides), and pruned past their retention.
 */
export class SqlWebhookOutbox extends WebhookOutbox {
  private readonly events: Repository<WebhookEventRecord>;
  private readonly writes: OutboxWrites;

  constructor(
    dataSource: DataSource,
    private readonly sql: WebhookStatements,
    private readonly bell: OutboxBell,
    private readonly endpoints: WebhookEndpointRepository,
  ) {
    super();
    this.events = dataSource.getRepository(WebhookEventRecord);
    this.writes = new OutboxWrites(dataSource);
  }

  async record(events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.sql.statements.transaction((manager) => this.writes.events(manager, events));
    this.bell.ring();
  }

  async recordOnce(event: WebhookEvent): Promise<boolean> {
    const recorded = await this.sql.statements.transaction((manager) => this.writes.eventOnce(manager, event));
    if (recorded) this.bell.ring();
    return recorded;
  }

  async fanOut(
    limit: number,
    deliveriesOf: (event: WebhookEvent, endpoints: readonly WebhookEndpoint[]) => WebhookDelivery[],
    at: Date,
  ): Promise<number> {
    const records = await this.events.find({ where: { fannedOutAt: IsNull() }, order: { occurredAt: 'ASC', id: 'ASC' }, take: limit });
    if (records.length === 0) return 0;
    const events = records.map((record) => WebhookMapper.eventToDomain(record));
    const endpoints = (await this.endpoints.list()).filter((e) => e.enabled);
    // each event is claimed by a conditional UPDATE: of instances fanning out at once, one writes its deliveries
    return this.sql.statements.transaction(async (manager) => {
      let count = 0;
      for (const event of events) {
        const claimed = await manager
          .createQueryBuilder()
          .update(WebhookEventRecord)
          .set({ fannedOutAt: at })
          .where('id = :id AND fanned_out_at IS NULL', { id: event.id })
          .execute();
        if (claimed.affected !== 1) continue;
        count += 1;
        const deliveries = deliveriesOf(event, endpoints).map((delivery) => WebhookMapper.deliveryToRecord(delivery));
        if (deliveries.length > 0) {
          await manager.createQueryBuilder().insert().into(WebhookDeliveryRecord).values(deliveries).updateEntity(false).execute();
        }
      }
      return count;
    });
  }

  async prune(fannedOutBefore: Readonly<Record<WebhookEventType, Date>>, limit: number): Promise<number> {
    const latest = new Date(Math.max(...WEBHOOK_EVENT_TYPES.map((type) => fannedOutBefore[type].getTime())));
    const params: Record<string, unknown> = { latest };
    WEBHOOK_EVENT_TYPES.forEach((type, i) => Object.assign(params, { [`type${i}`]: type, [`before${i}`]: fannedOutBefore[type] }));
    // the first condition is the index's range (ix_webhook_events_pending); each type then has its own instant
    const where = `webhook_events.fanned_out_at < :latest
      AND (${WEBHOOK_EVENT_TYPES.map((_, i) => `(webhook_events.type = :type${i} AND webhook_events.fanned_out_at < :before${i})`).join(' OR ')})
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`;
    return this.sql.boundedDelete('webhook_events', where, params, limit);
  }
}
