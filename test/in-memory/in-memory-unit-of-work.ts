import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type WebhookEvent, type WebhookOutbox } from '@svc/domain';
import { type InMemoryAnalyticsEventRepository } from './in-memory-analytics-event.repository';
import { InMemoryIdempotencyKeys } from './in-memory-idempotency-keys';
import { type InMemoryUsageRepository } from './in-memory-usage.repository';

/**
 * The outbox's records as a unit of work writes them, for use-case tests only
 * (the in-memory adapters have no dispatcher): each event once per id.
 */
export class InMemoryOutboxRecords implements Pick<WebhookOutbox, 'recordOnce'> {
  private readonly byId = new Map<string, WebhookEvent>();

  async recordOnce(event: WebhookEvent): Promise<boolean> {
    if (this.byId.has(event.id)) return false;
    this.byId.set(event.id, event);
    return true;
  }

  /** Everything recorded, oldest first. */
  all(): WebhookEvent[] {
    return [...this.byId.values()];
  }
}

/**
 * A unit of work over the in-memory adapters, for use-case tests only: the
 * work runs on the adapters themselves, whose every step is synchronous. What
 * it records in the outbox and the idempotency keys it claims are kept only
 * when the work resolves; there is no rolling back an event appended or a
 * unit consumed before a failure.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  constructor(
    private readonly events: InMemoryAnalyticsEventRepository,
    private readonly usage: InMemoryUsageRepository,
    readonly outbox = new InMemoryOutboxRecords(),
    readonly idempotencyKeys = new InMemoryIdempotencyKeys(),
  ) {
    super();
  }

  async run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    const pending = new InMemoryOutboxRecords();
    const rollBackClaims = this.idempotencyKeys.snapshot();
    let value: T;
    try {
      value = await work({ events: this.events, usage: this.usage, idempotencyKeys: this.idempotencyKeys, outbox: pending });
    } catch (error) {
      rollBackClaims();
      throw error;
    }
    for (const event of pending.all()) await this.outbox.recordOnce(event);
    return value;
  }
}
