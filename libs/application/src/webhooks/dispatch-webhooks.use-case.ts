import { Injectable } from '@nestjs/common';
import {
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
  Clock,
  IdGenerator,
  KEY_EXPIRING_NOTICE_MS,
  RandomSource,
  SYSTEM_ACTOR,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  ApiKeyRepository,
  WebhookDeliveryQueue,
  WebhookDeliverySchedule,
  WebhookOutbox,
  failingTooLong,
  keyExpiringEvent,
  signingSecretsOf,
  webhookBodyOf,
} from '@svc/domain';
import { WebhookTransport } from './webhook-ports';

/** What became of one claimed delivery. */
export type DeliveryResult = 'succeeded' | 'retrying' | 'failed' | 'lease_lost';

const FAN_OUT_BATCH = 100;
const EXPIRING_BATCH = 200;

/**
 * The dispatcher's steps (CONTRACT 20), each safe to run on any number of
 * instances at once: fan the outbox's events out into deliveries (each
 * event once), record `key.expiring` for keys 7 days from expiry (each key
 * once), and attempt the deliveries that are due, each claimed with a lease
 * so that one instance attempts it at a time (a dead instance's claim is
 * taken over once its lease has run out; whoever runs the steps bounds how
 * many are under way: DELIVERY_SLOTS, ENDPOINT_SLOTS). A failed attempt is
 * retried on the schedule's delays, then the delivery is failed; an endpoint that has failed
 * every delivery for DISABLE_FAILING_AFTER_MS is disabled, audited as the system.
 */
@Injectable()
export class DispatchWebhooks {
  /** This instance's name on its leases. */
  readonly owner: string;

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly deliveries: WebhookDeliveryQueue,
    private readonly keys: ApiKeyRepository,
    private readonly transport: WebhookTransport,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly schedule: WebhookDeliverySchedule,
    random: RandomSource,
  ) {
    this.owner = `dispatcher_${random.hex(8)}`;
  }

  /** Fans out what the outbox holds; answers how many events were fanned out. */
  async fanOut(): Promise<number> {
    let total = 0;
    for (;;) {
      const fanned = await this.outbox.fanOut(FAN_OUT_BATCH, (event, endpoints) => this.deliveriesOf(event, endpoints), this.clock.now());
      total += fanned;
      if (fanned < FAN_OUT_BATCH) return total;
    }
  }

  /** Records `key.expiring` for every key that expires within KEY_EXPIRING_NOTICE_MS and has had none; answers how many. */
  async recordExpiring(): Promise<number> {
    const now = this.clock.now();
    const keys = await this.keys.findExpiringBetween(now, new Date(now.getTime() + KEY_EXPIRING_NOTICE_MS), EXPIRING_BATCH);
    let recorded = 0;
    for (const key of keys) if (await this.outbox.recordOnce(keyExpiringEvent(key, now))) recorded += 1;
    return recorded;
  }

  /**
   * Claims up to `limit` due deliveries for this instance (a lease of
   * WEBHOOK_DELIVERY_LEASE_MS each), at most one per endpoint and none of
   * `fullEndpoints`: the caller attempts each at once (`attempt`), so none
   * waits on its lease for a slot.
   */
  async claimDue(limit: number, fullEndpoints: readonly string[]): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    return this.deliveries.claimDue(this.owner, now, new Date(now.getTime() + this.schedule.leaseMs), limit, fullEndpoints);
  }

  /** Attempts one claimed delivery (within WEBHOOK_ATTEMPT_TIMEOUT_MS, inside its lease) and records what came of it. */
  async attempt({ delivery, endpoint }: ClaimedDelivery): Promise<DeliveryResult> {
    if (!endpoint.enabled) {
      // nothing is sent to a disabled endpoint: its deliveries end failed (an operator can retry them once it is enabled)
      const at = this.clock.now();
      const settled = await this.deliveries.recordAttempt({
        ...this.failure(delivery, endpoint, at, null, 'the endpoint is disabled'),
        status: 'failed',
        nextAttemptAt: null,
        disable: null,
        countsAsAttempt: false,
      });
      return settled ? 'failed' : 'lease_lost';
    }
    const sentAt = this.clock.now();
    const outcome: AttemptOutcome = await this.transport.send({
      url: endpoint.url,
      id: delivery.id,
      timestamp: sentAt,
      body: delivery.body,
      secrets: signingSecretsOf(endpoint, sentAt),
    });
    const at = this.clock.now();
    const record: AttemptRecord = outcome.ok
      ? {
          deliveryId: delivery.id,
          leaseOwner: this.owner,
          at,
          status: 'succeeded',
          nextAttemptAt: null,
          statusCode: outcome.statusCode,
          error: null,
          succeeded: true,
          disable: null,
        }
      : this.failure(delivery, endpoint, at, outcome.statusCode, outcome.error);
    if (!(await this.deliveries.recordAttempt(record))) return 'lease_lost';
    return record.status === 'succeeded' ? 'succeeded' : record.status === 'failed' ? 'failed' : 'retrying';
  }

  private failure(delivery: WebhookDelivery, endpoint: WebhookEndpoint, at: Date, statusCode: number | null, error: string): AttemptRecord {
    const next = this.schedule.nextAttemptAfterFailure(delivery.attempts + 1, at);
    const disable = failingTooLong(endpoint.failingSince, at)
      ? {
          reason: 'every delivery failed for 5 days',
          audit: {
            id: this.ids.newId('aud'),
            at,
            action: 'webhook.disabled' as const,
            keyId: null,
            reason: 'every delivery failed for 5 days',
            details: { webhook_id: endpoint.id, failing_since: endpoint.failingSince?.toISOString() ?? null },
            actor: SYSTEM_ACTOR,
          },
        }
      : null;
    return {
      deliveryId: delivery.id,
      leaseOwner: this.owner,
      at,
      status: next === null ? 'failed' : 'pending',
      nextAttemptAt: next,
      statusCode,
      error: error.slice(0, 500),
      succeeded: false,
      disable,
    };
  }

  /** One delivery per enabled endpoint subscribed to the event's type, due at once. */
  private deliveriesOf(event: WebhookEvent, endpoints: readonly WebhookEndpoint[]): WebhookDelivery[] {
    const body = webhookBodyOf(event.type, event.occurredAt, event.data);
    return endpoints
      .filter((e) => e.enabled && e.events.includes(event.type))
      .map((endpoint) => ({
        id: this.ids.newId('msg'),
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        body,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: event.occurredAt,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        createdAt: event.occurredAt,
      }));
  }
}
