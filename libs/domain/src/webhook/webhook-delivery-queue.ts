import { type AuditEntry } from '../audit/audit-entry';
import { type DeliveryStatus, type WebhookDelivery } from './webhook-delivery';
import { type WebhookEndpoint } from './webhook-endpoint';

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

/**
 * The deliveries made from the outbox (CONTRACT 20): each claimed by one
 * instance at a time under a lease, its attempts recorded by the lease's
 * holder, listed and retried by operators, counted for the metrics and
 * pruned once ended.
 */
export abstract class WebhookDeliveryQueue {
  /** Adds one delivery on its own (the test event), with its audit entry. */
  abstract add(delivery: WebhookDelivery, audit: AuditEntry): Promise<void>;
  /**
   * Claims up to `limit` pending deliveries due at `at` whose lease is free or
   * expired, for `owner` until `leaseUntil`: no two owners hold one at once.
   * At most one per endpoint, and none of the endpoints in `skipEndpoints`
   * (those whose slots the caller has filled); the earliest due first.
   */
  abstract claimDue(owner: string, at: Date, leaseUntil: Date, limit: number, skipEndpoints: readonly string[]): Promise<ClaimedDelivery[]>;
  /** Writes an attempt while `leaseOwner` still holds the lease; false when it lost it. */
  abstract recordAttempt(attempt: AttemptRecord): Promise<boolean>;
  abstract list(filter: DeliveryFilter): Promise<WebhookDelivery[]>;
  abstract find(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** Makes a delivery pending and due at `at` again (its attempts kept), with the audit entry; false when it is gone. */
  abstract retry(endpointId: string, deliveryId: string, at: Date, audit: AuditEntry): Promise<boolean>;
  /** How many messages wait (events not yet fanned out included), and since when (metrics). */
  abstract depth(): Promise<OutboxDepth>;
  /**
   * Deletes up to `limit` deliveries that ended (`succeeded` or `failed`)
   * with their last attempt, or their creation when never attempted, before
   * `endedBefore`; answers how many. Deleting what is gone is no error, so
   * instances may prune at once.
   */
  abstract prune(endedBefore: Date, limit: number): Promise<number>;
}
