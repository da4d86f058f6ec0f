import { type AuditEntry } from '../audit/audit-entry';
import { type DeliveryStatus, type WebhookDelivery } from './webhook-delivery';
import { type WebhookEndpoint } from './webhook-endpoint';
import { type WebhookEvent, type WebhookEventType } from './webhook-event';

/** Where a page of deliveries ended (newest first): the last one's creation time and id. */
export interface DeliveryPosition {
  readonly createdAt: Date;
  readonly id: string;
}

export interface DeliveryFilter {
  readonly endpointId: string;
  readonly status?: DeliveryStatus;
  readonly after?: DeliveryPosition;
  readonly limit: number;
}

/** A delivery claimed for one attempt by one instance until `leaseUntil`, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery;
  readonly endpoint: WebhookEndpoint;
}

/** How many messages wait: events not yet fanned out plus deliveries not yet done, and when the oldest was recorded. */
export interface OutboxDepth {
  readonly pending: number;
  readonly oldest: Date | null;
}

/** The result of one attempt, written with what it implies for the endpoint. */
export interface AttemptRecord {
  readonly deliveryId: string;
  readonly leaseOwner: string;
  readonly at: Date;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: Date | null;
  readonly statusCode: number | null;
  readonly error: string | null;
  /** Success: the endpoint is no longer failing. Failure: failing since `at` unless it already was. */
  readonly succeeded: boolean;
  /** The endpoint has failed every delivery too long: disabled with this audit entry, in the same transaction. */
  readonly disable: { readonly reason: string; readonly audit: AuditEntry } | null;
  /** False: not an attempt (nothing was sent; the delivery is only settled), so neither counted nor held against the endpoint. */
  readonly countsAsAttempt?: boolean;
}

/** Endpoints, the outbox of events, and the deliveries made from it (CONTRACT 20). */
export abstract class WebhookRepository {
  abstract createEndpoint(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<void>;
  abstract listEndpoints(): Promise<WebhookEndpoint[]>;
  abstract findEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** Saves url, events, description, enabled and the secrets with the audit entry; false when it is gone. */
  abstract updateEndpoint(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<boolean>;
  /** Deletes it and its deliveries with the audit entry; false when it is gone. */
  abstract deleteEndpoint(id: string, audit: AuditEntry): Promise<boolean>;

  /** Records events in the outbox on their own (what no other change carries). */
  abstract recordEvents(events: readonly WebhookEvent[]): Promise<void>;
  /**
   * Records an event only when no event of its id is there yet (a notice
   * that must be sent once, such as `key.expiring`); true when recorded.
   */
  abstract recordOnce(event: WebhookEvent): Promise<boolean>;
  /** Keys not revoked or rotated that expire in (from, until] and have had no `key.expiring` yet. */
  abstract keysExpiringBetween(
    from: Date,
    until: Date,
    limit: number,
  ): Promise<Array<{ id: string; prefix: string; licenseId: string; expiresAt: Date }>>;

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
  /** Adds one delivery on its own (the test event), with its audit entry. */
  abstract insertDelivery(delivery: WebhookDelivery, audit: AuditEntry): Promise<void>;
  /**
   * Claims up to `limit` pending deliveries due at `at` whose lease is free or
   * expired, for `owner` until `leaseUntil`: no two owners hold one at once.
   * At most one per endpoint, and none of the endpoints in `skipEndpoints`
   * (those whose slots the caller has filled); the earliest due first.
   */
  abstract claimDue(owner: string, at: Date, leaseUntil: Date, limit: number, skipEndpoints: readonly string[]): Promise<ClaimedDelivery[]>;
  /** Writes an attempt while `leaseOwner` still holds the lease; false when it lost it. */
  abstract recordAttempt(attempt: AttemptRecord): Promise<boolean>;
  abstract listDeliveries(filter: DeliveryFilter): Promise<WebhookDelivery[]>;
  abstract findDelivery(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** Makes a delivery pending and due at `at` again (its attempts kept), with the audit entry; false when it is gone. */
  abstract retryDelivery(endpointId: string, deliveryId: string, at: Date, audit: AuditEntry): Promise<boolean>;
  /** How many messages wait, and since when (metrics). */
  abstract depth(): Promise<OutboxDepth>;
  /**
   * Deletes up to `limit` deliveries that ended (`succeeded` or `failed`)
   * with their last attempt, or their creation when never attempted, before
   * `endedBefore`; answers how many. Deleting what is gone is no error, so
   * instances may prune at once.
   */
  abstract pruneDeliveries(endedBefore: Date, limit: number): Promise<number>;
  /** Deletes up to `limit` events fanned out before their type's instant that have no delivery left (OutboxRetention); answers how many. */
  abstract pruneEvents(fannedOutBefore: Readonly<Record<WebhookEventType, Date>>, limit: number): Promise<number>;
}
