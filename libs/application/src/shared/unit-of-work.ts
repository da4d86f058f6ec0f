import { type AnalyticsEventRepository, type IdempotencyKeys, type UsageRepository, type WebhookOutbox } from '@svc/domain';

/** The ports a unit of work hands its work: each writes in the unit's one transaction. */
export interface TransactionalPorts {
  /** An event appended with its quota consumption (appendConsuming), or events whose units were consumed (storeAll). */
  readonly events: Pick<AnalyticsEventRepository, 'appendConsuming' | 'storeAll'>;
  /** The license's counter, read or consumed (and held until the unit ends). */
  readonly usage: Pick<UsageRepository, 'usedIn' | 'consumeUpTo'>;
  /** Idempotency keys claimed for the events stored (CONTRACT 22). */
  readonly idempotencyKeys: IdempotencyKeys;
  /** Notices recorded with the change that raised them. */
  readonly outbox: Pick<WebhookOutbox, 'recordOnce'>;
}

/**
 * A change and what it records about itself (the webhook notices it raises)
 * in one transaction, owned by the use case that makes the change: `work`
 * writes through the ports it is handed, and all of it commits when `work`
 * resolves, or none of it when it rejects. A database may roll a first
 * attempt back whole and run `work` once more from the start (a deadlock
 * victim, a counter opened first), so `work` writes only through these
 * ports and decides only from what they answer.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T>;
}
