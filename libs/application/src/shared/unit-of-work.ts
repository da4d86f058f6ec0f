import {
  type AnalyticsEvent,
  type AnalyticsEventRepository,
  type IdempotencyKeys,
  type UsageRepository,
  type WebhookOutbox,
} from '@svc/domain';

/**
 * A license's counter in a unit of work, read, or held: every other unit
 * that holds it waits until this one ends, so that what is decided from
 * `used` (the units granted) stays true until the commit.
 */
export interface CounterInTransaction extends Pick<UsageRepository, 'usedIn'> {
  /** Holds the license's counter of the period (opening it at 0 when there is none yet): the units used. */
  hold(licenseId: string, periodKey: string): Promise<number>;
  /** Adds units to the counter held. */
  add(licenseId: string, periodKey: string, units: number): Promise<void>;
}

/** Events in a unit of work: one appended with its consumption, or many whose units were counted (CounterInTransaction) stored in one write. */
export interface EventsInTransaction extends Pick<AnalyticsEventRepository, 'appendConsuming'> {
  storeAll(events: readonly AnalyticsEvent[]): Promise<void>;
}

/** The ports a unit of work hands its work: each writes in the unit's one transaction. */
export interface TransactionalPorts {
  /** An event appended with its quota consumption (appendConsuming), or events whose units were consumed (storeAll). */
  readonly events: EventsInTransaction;
  /** The license's counter, held until the unit ends, then added to. */
  readonly usage: CounterInTransaction;
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
