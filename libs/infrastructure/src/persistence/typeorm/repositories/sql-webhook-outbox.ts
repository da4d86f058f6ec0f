import {
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookEvent,
  type WebhookEventType,
  WebhookOutbox,
  WEBHOOK_EVENT_TYPES,
} from '@svc/domain';
import { type DataSource } from 'typeorm';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { RecordHydrator } from '../record-hydrator';
import { RecordValues } from '../record-values';
import { WebhookDeliveryRecord, WebhookEventRecord } from '../records/webhook.records';
import { type WebhookStatements } from './webhook-statements';

/**
 * The webhook outbox on a SQL database (CONTRACT 20): events recorded on
 * their own (those a change records go in the change's transaction:
 * OutboxWrites, a unit of work), fanned out into deliveries by one instance
 * per event (a conditional UPDATE decides), and pruned past their retention.
 */
export class SqlWebhookOutbox extends WebhookOutbox {
  private readonly eventRows: RecordHydrator<WebhookEventRecord>;
  private readonly deliveryValues: RecordValues<WebhookDeliveryRecord>;
  private readonly writes: OutboxWrites;

  constructor(
    dataSource: DataSource,
    private readonly sql: WebhookStatements,
    private readonly bell: OutboxBell,
    private readonly endpoints: WebhookEndpointRepository,
  ) {
    super();
    this.eventRows = new RecordHydrator(dataSource, WebhookEventRecord);
    this.deliveryValues = new RecordValues(dataSource, WebhookDeliveryRecord);
    this.writes = new OutboxWrites(dataSource, sql.statements);
  }

  async record(events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    const writes = this.writes;
    await this.sql.statements.writeTogether(function* () {
      yield* writes.events(events);
    });
    this.bell.ring();
  }

  async recordOnce(event: WebhookEvent): Promise<boolean> {
    const writes = this.writes;
    const recorded = await this.sql.statements.writeTogether(function* () {
      return yield* writes.eventOnce(event);
    });
    if (recorded) this.bell.ring();
    return recorded;
  }

  async fanOut(
    limit: number,
    deliveriesOf: (event: WebhookEvent, endpoints: readonly WebhookEndpoint[]) => WebhookDelivery[],
    at: Date,
  ): Promise<number> {
    const rows = await this.sql
      .statement(
        `webhook_events_pending_${limit}`,
        `SELECT ${this.eventRows.selectList('e')} FROM webhook_events e WHERE e.fanned_out_at IS NULL ORDER BY e.occurred_at, e.id LIMIT ${Math.trunc(limit)}`,
      )
      .all([]);
    if (rows.length === 0) return 0;
    const events = rows.map((row) => WebhookMapper.eventToDomain(this.eventRows.hydrate(row)));
    const endpoints = (await this.endpoints.list()).filter((e) => e.enabled);
    const deliveryValues = this.deliveryValues;
    const fannedAt = this.eventRows.bind('fannedOutAt', at);
    return this.sql.statements.writeTogether(function* () {
      let count = 0;
      for (const event of events) {
        const claimed = yield {
          sql: 'UPDATE webhook_events SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL',
          params: [fannedAt, event.id],
        };
        if (claimed !== 1) continue;
        count += 1;
        for (const delivery of deliveriesOf(event, endpoints)) {
          yield { sql: deliveryValues.insertSql(), params: deliveryValues.of(WebhookMapper.deliveryToRecord(delivery)) };
        }
      }
      return count;
    });
  }

  async prune(fannedOutBefore: Readonly<Record<WebhookEventType, Date>>, limit: number): Promise<number> {
    const latest = new Date(Math.max(...WEBHOOK_EVENT_TYPES.map((type) => fannedOutBefore[type].getTime())));
    const at = (d: Date) => this.eventRows.bind('fannedOutAt', d);
    // the first condition is the index's range (ix_webhook_events_pending); each type then has its own instant
    const where = `fanned_out_at < ? AND (${WEBHOOK_EVENT_TYPES.map(() => '(type = ? AND fanned_out_at < ?)').join(' OR ')})
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`;
    return this.sql.boundedDelete(
      'webhook_events',
      where,
      [at(latest), ...WEBHOOK_EVENT_TYPES.flatMap((type) => [type, at(fannedOutBefore[type])])],
      limit,
    );
  }
}
