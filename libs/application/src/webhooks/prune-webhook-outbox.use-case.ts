import { Injectable } from '@nestjs/common';
import { Clock, WebhookDeliveryQueue, WebhookOutbox, outboxRetention } from '@svc/domain';

/** How many rows one delete statement takes. */
export const PRUNE_BATCH = 1000;
/** How many statements of each kind one sweep runs at most (the rest is left for the next sweep). */
const MAX_BATCHES = 100;

/** What one sweep deleted. */
export interface PrunedOutbox {
  readonly deliveries: number;
  readonly events: number;
}

/**
 * The outbox's retention sweep (WEBHOOK_RETENTION_DAYS, OutboxRetention):
 * deletes ended deliveries past the retention, then the events fanned out
 * past their type's retention that have no delivery left, in statements of
 * PRUNE_BATCH rows. A delete is idempotent, so any number of instances may
 * sweep at once.
 */
@Injectable()
export class PruneWebhookOutbox {
  constructor(
    private readonly deliveries: WebhookDeliveryQueue,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  async execute(retentionDays: number): Promise<PrunedOutbox> {
    const retention = outboxRetention(this.clock.now(), retentionDays);
    const deliveries = await this.inBatches(() => this.deliveries.prune(retention.deliveriesEndedBefore, PRUNE_BATCH));
    const events = await this.inBatches(() => this.outbox.prune(retention.eventsFannedOutBefore, PRUNE_BATCH));
    return { deliveries, events };
  }

  private async inBatches(prune: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const deleted = await prune();
      total += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    return total;
  }
}
