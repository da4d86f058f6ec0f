import { type WebhookDelivery } from './webhook-delivery';
import { type WebhookEndpoint } from './webhook-endpoint';
import { type WebhookEvent, type WebhookEventType } from './webhook-event';

/**
 * The outbox of webhook events (CONTRACT 20): what happened, recorded in the
 * transaction of the change that caused it (a unit of work hands its work a
 * transactional outbox; a change a repository writes in one step takes its
 * events with it), then fanned out into deliveries by the dispatcher.
 */
export abstract class WebhookOutbox {
  /** Records events (what no other change carries). */
  abstract record(events: readonly WebhookEvent[]): Promise<void>;
  /**
   * Records an event only when no event of its id is there yet (a notice
   * that must be sent once, such as `key.expiring` or a quota notice); true when recorded.
   */
  abstract recordOnce(event: WebhookEvent): Promise<boolean>;
  /**
   * Fans the oldest events not yet fanned out into deliveries, one per
   * enabled endpoint subscribed to the type (made by `deliveriesOf`), each
   * event by exactly one caller; answers how many events it fanned out.
   */
  abstract fanOut(
    limit: number,
    deliveriesOf: (event: WebhookEvent, endpoints: readonly WebhookEndpoint[]) => WebhookDelivery[],
    at: Date,
  ): Promise<number>;
  /** Deletes up to `limit` events fanned out before their type's instant that have no delivery left (OutboxRetention); answers how many. */
  abstract prune(fannedOutBefore: Readonly<Record<WebhookEventType, Date>>, limit: number): Promise<number>;
}
