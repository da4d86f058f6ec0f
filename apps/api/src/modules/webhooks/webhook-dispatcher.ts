import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type DeliveryResult, DispatchWebhooks, OutboxSignal, type PrunedOutbox, PruneWebhookOutbox } from '@svc/application';
import { AppConfig } from '@svc/config';
import { type ClaimedDelivery, Clock, DELIVERY_SLOTS, ENDPOINT_SLOTS, WebhookDeliveryQueue } from '@svc/domain';
import { Counter, Gauge } from 'prom-client';
import { ServiceMetrics } from '../../observability/service-metrics';

/** How often keys near expiry are looked for. */
const EXPIRING_INTERVAL_MS = 60_000;
/** How often the outbox's retention sweep runs (WEBHOOK_RETENTION_DAYS). */
export const RETENTION_INTERVAL_MS = 3600_000;
/** How long shutdown waits for attempts under way (longer than one attempt may take). */
const DRAIN_TIMEOUT_MS = 12_000;

/**
 * Runs the dispatcher's steps (DispatchWebhooks) in this instance: at once
 * when a transaction of this instance records events (the OutboxSignal),
 * every WEBHOOK_POLL_INTERVAL_MS for what other instances recorded or what became
 * due, the `key.expiring` check every minute, and the outbox's retention
 * sweep at start and every hour. One cycle at a time: it fans events out and
 * fills the free slots (DELIVERY_SLOTS) with due deliveries, at most
 * ENDPOINT_SLOTS of them to one endpoint, and starts each attempt without
 * waiting for it; an attempt that ends gives its slot back and runs a cycle,
 * so the next delivery starts as soon as a slot frees, and a receiver that
 * never answers holds only its own slots. A failure (the database away) is
 * logged and the next cycle tries again. Deliveries by outcome, the outbox's
 * depth, the age of its oldest message and the rows pruned are metrics.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly deliveries: Counter<'outcome'>;
  private readonly pruned: Counter<'table'>;
  private poll?: NodeJS.Timeout;
  private expiring?: NodeJS.Timeout;
  private retention?: NodeJS.Timeout;
  private pruning?: Promise<PrunedOutbox | null>;
  private unlisten?: () => void;
  private running?: Promise<void>;
  /** The attempts under way, each holding a slot until it is recorded. */
  private readonly attempts = new Set<Promise<void>>();
  /** How many of those go to each endpoint. */
  private readonly perEndpoint = new Map<string, number>();
  private again = false;
  private stopped = false;

  constructor(
    private readonly dispatch: DispatchWebhooks,
    private readonly pruneOutbox: PruneWebhookOutbox,
    private readonly config: AppConfig,
    private readonly deliveryQueue: WebhookDeliveryQueue,
    private readonly signal: OutboxSignal,
    private readonly clock: Clock,
    metrics: ServiceMetrics,
  ) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'svc_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, tried again later), failed (schedule ended), lease_lost',
      labelNames: ['outcome'],
      registers,
    });
    this.pruned = new Counter({
      name: 'svc_webhook_outbox_pruned_total',
      help: 'Webhook outbox rows deleted by the retention sweep (WEBHOOK_RETENTION_DAYS), by table: deliveries, events',
      labelNames: ['table'],
      registers,
    });
    const depth = () => this.deliveryQueue.depth().catch(() => null);
    new Gauge({
      name: 'svc_webhook_outbox_depth',
      help: 'Webhook messages waiting: events not yet fanned out plus deliveries pending',
      registers,
      async collect() {
        const found = await depth();
        if (found) this.set(found.pending);
      },
    });
    const now = () => this.clock.now().getTime();
    new Gauge({
      name: 'svc_webhook_outbox_oldest_age_seconds',
      help: 'Age of the oldest webhook message waiting (0 when none)',
      registers,
      async collect() {
        const found = await depth();
        if (found) this.set(found.oldest === null ? 0 : Math.max(0, (now() - found.oldest.getTime()) / 1000));
      },
    });
  }

  onApplicationBootstrap(): void {
    this.unlisten = this.signal.listen(() => this.wake());
    this.poll = setInterval(() => this.wake(), this.config.webhooks.pollIntervalMs);
    this.poll.unref();
    this.expiring = setInterval(() => void this.recordExpiring(), EXPIRING_INTERVAL_MS);
    this.expiring.unref();
    this.retention = setInterval(() => void this.prune(), RETENTION_INTERVAL_MS);
    this.retention.unref();
    void this.recordExpiring();
    void this.prune();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    clearInterval(this.poll);
    clearInterval(this.expiring);
    clearInterval(this.retention);
    const underWay = [...(this.running ? [this.running] : []), ...this.attempts];
    if (underWay.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(underWay), new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)))]);
      clearTimeout(timer);
    }
  }

  /**
   * Resolves once this instance has no cycle and no attempt under way, the ones
   * they start included; until a signal, the poll or `wake` starts another.
   */
  async settled(): Promise<void> {
    while (this.running || this.attempts.size > 0) await Promise.allSettled([this.running, ...this.attempts]);
  }

  /** Runs a cycle now, or once more right after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.cycle().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async cycle(): Promise<void> {
    try {
      await this.dispatch.fanOut();
      // a claim takes at most one delivery per endpoint: claim again while slots are free and it found some
      while (!this.stopped && this.attempts.size < DELIVERY_SLOTS) {
        const full = [...this.perEndpoint].filter(([, n]) => n >= ENDPOINT_SLOTS).map(([id]) => id);
        const claimed = await this.dispatch.claimDue(DELIVERY_SLOTS - this.attempts.size, full);
        for (const claim of claimed) this.start(claim);
        if (claimed.length === 0) break;
      }
    } catch (error) {
      this.logger.warn({ msg: 'webhook dispatch failed; retrying on the next cycle', error: (error as Error).message });
    }
  }

  /** Attempts a claimed delivery in a slot of its own, and once it is recorded gives the slot back and runs a cycle. */
  private start(claim: ClaimedDelivery): void {
    const endpointId = claim.endpoint.id;
    this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
    const attempt: Promise<void> = this.dispatch
      .attempt(claim)
      .then(
        (result) => this.count([result]),
        (error: Error) => this.logger.warn({ msg: 'webhook attempt could not be recorded; its lease runs out', error: error.message }),
      )
      .finally(() => {
        const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(endpointId, left);
        else this.perEndpoint.delete(endpointId);
        this.attempts.delete(attempt);
        this.wake();
      });
    this.attempts.add(attempt);
  }

  private async recordExpiring(): Promise<void> {
    if (this.stopped) return;
    try {
      if ((await this.dispatch.recordExpiring()) > 0) this.wake();
    } catch (error) {
      this.logger.warn({ msg: 'key.expiring check failed; retrying in a minute', error: (error as Error).message });
    }
  }

  /**
   * One retention sweep (one at a time in this instance; a sweep under way is
   * joined): answers what it deleted, or null when it failed (logged, tried
   * again at the next interval).
   */
  prune(): Promise<PrunedOutbox | null> {
    if (this.stopped) return Promise.resolve(null);
    this.pruning ??= this.sweep().finally(() => (this.pruning = undefined));
    return this.pruning;
  }

  private async sweep(): Promise<PrunedOutbox | null> {
    const retentionDays = this.config.webhooks.retentionDays;
    try {
      const pruned = await this.pruneOutbox.execute(retentionDays);
      this.pruned.labels('deliveries').inc(pruned.deliveries);
      this.pruned.labels('events').inc(pruned.events);
      if (pruned.deliveries + pruned.events > 0) {
        this.logger.log({
          msg: 'webhook outbox pruned',
          deliveries: pruned.deliveries,
          events: pruned.events,
          retention_days: retentionDays,
        });
      }
      return pruned;
    } catch (error) {
      this.logger.warn({ msg: 'webhook outbox retention sweep failed; retrying in an hour', error: (error as Error).message });
      return null;
    }
  }

  private count(results: readonly DeliveryResult[]): void {
    for (const outcome of results) this.deliveries.labels(outcome).inc();
  }
}
