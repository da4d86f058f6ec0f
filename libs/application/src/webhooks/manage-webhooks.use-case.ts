import { Injectable } from '@nestjs/common';
import {
  type Actor,
  type AuditAction,
  type AuditEntry,
  Clock,
  DeliveryNotFoundError,
  type DeliveryPosition,
  type DeliveryStatus,
  IdGenerator,
  InvalidRequestError,
  RandomSource,
  SECRET_OVERLAP_MS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointChange,
  type WebhookEventType,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
  WebhookNotFoundError,
  generateWebhookSecret,
  webhookBodyOf,
} from '@svc/domain';
import { WebhookTargets } from './webhook-ports';

export interface CreateWebhookInput {
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description?: string | null;
  readonly actor: Actor;
}

/** An endpoint with its signing secret: shown here once, never again. */
export interface WebhookWithSecret {
  readonly endpoint: WebhookEndpoint;
  readonly secret: string;
}

export interface ListDeliveriesInput {
  readonly endpointId: string;
  readonly status?: DeliveryStatus;
  readonly after?: DeliveryPosition;
  readonly limit: number;
}

/**
 * The admin API's webhooks (CONTRACT 20): endpoints (the secret shown once,
 * the address checked by WebhookTargets), a new secret with a 24-hour overlap,
 * a test event, the deliveries, a manual retry. Every change is audited with
 * its actor, in the same transaction; no entry holds a secret.
 */
@Injectable()
export class ManageWebhooks {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveryQueue: WebhookDeliveryQueue,
    private readonly targets: WebhookTargets,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async create(input: CreateWebhookInput): Promise<WebhookWithSecret> {
    checkEvents(input.events);
    await this.targets.check(input.url);
    const now = this.clock.now();
    const secret = generateWebhookSecret(this.random);
    const endpoint: WebhookEndpoint = {
      id: this.ids.newId('whe'),
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      enabled: true,
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.endpoints.create(endpoint, this.entry('webhook.created', endpoint, input.actor, now));
    return { endpoint, secret };
  }

  list(): Promise<WebhookEndpoint[]> {
    return this.endpoints.list();
  }

  async show(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(id);
    if (!endpoint) throw new WebhookNotFoundError();
    return endpoint;
  }

  async update(id: string, change: WebhookEndpointChange, actor: Actor): Promise<WebhookEndpoint> {
    const existing = await this.show(id);
    if (change.events !== undefined) checkEvents(change.events);
    if (change.url !== undefined && change.url !== existing.url) await this.targets.check(change.url);
    const now = this.clock.now();
    const enabled = change.enabled ?? existing.enabled;
    const updated: WebhookEndpoint = {
      ...existing,
      url: change.url ?? existing.url,
      events: change.events === undefined ? existing.events : [...new Set(change.events)],
      description: change.description === undefined ? existing.description : change.description,
      enabled,
      // enabled again: a fresh start, not failing, and no longer disabled by the service
      failingSince: enabled && !existing.enabled ? null : existing.failingSince,
      disabledReason: enabled ? null : existing.enabled ? 'disabled by an operator' : existing.disabledReason,
      updatedAt: now,
    };
    const fields = Object.keys(change).filter((k) => change[k as keyof WebhookEndpointChange] !== undefined);
    if (!(await this.endpoints.update(updated, this.entry('webhook.updated', updated, actor, now, { changed: fields })))) {
      throw new WebhookNotFoundError();
    }
    return updated;
  }

  async delete(id: string, actor: Actor): Promise<void> {
    const existing = await this.show(id);
    const now = this.clock.now();
    if (!(await this.endpoints.delete(id, this.entry('webhook.deleted', existing, actor, now)))) throw new WebhookNotFoundError();
  }

  /** A new secret, shown once; the one it replaces keeps signing beside it for SECRET_OVERLAP_MS. */
  async replaceSecret(id: string, actor: Actor): Promise<WebhookWithSecret> {
    const existing = await this.show(id);
    const now = this.clock.now();
    const secret = generateWebhookSecret(this.random);
    const updated: WebhookEndpoint = {
      ...existing,
      secret,
      previousSecret: existing.secret,
      previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
      updatedAt: now,
    };
    const audit = this.entry('webhook.secret_replaced', updated, actor, now, {
      previous_secret_expires_at: updated.previousSecretExpiresAt?.toISOString(),
    });
    if (!(await this.endpoints.update(updated, audit))) throw new WebhookNotFoundError();
    return { endpoint: updated, secret };
  }

  /** A `webhook.test` message to this endpoint only, delivered like any other (and listed among its deliveries). */
  async sendTest(id: string, actor: Actor): Promise<WebhookDelivery> {
    const endpoint = await this.show(id);
    const now = this.clock.now();
    const delivery: WebhookDelivery = {
      id: this.ids.newId('msg'),
      endpointId: endpoint.id,
      eventId: null,
      eventType: 'webhook.test',
      body: webhookBodyOf('webhook.test', now, { endpoint_id: endpoint.id, message: 'A test event sent from the admin API.' }),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      createdAt: now,
    };
    await this.deliveryQueue.add(delivery, this.entry('webhook.tested', endpoint, actor, now, { delivery_id: delivery.id }));
    return delivery;
  }

  async deliveries(input: ListDeliveriesInput): Promise<WebhookDelivery[]> {
    await this.show(input.endpointId);
    return this.deliveryQueue.list(input);
  }

  /** A delivery due again now, whatever its status: one more attempt (its attempts kept; failed again if that fails past the schedule). */
  async retry(endpointId: string, deliveryId: string, actor: Actor): Promise<WebhookDelivery> {
    const endpoint = await this.show(endpointId);
    const now = this.clock.now();
    const audit = this.entry('webhook.delivery_retried', endpoint, actor, now, { delivery_id: deliveryId });
    if (!(await this.deliveryQueue.retry(endpointId, deliveryId, now, audit))) throw new DeliveryNotFoundError();
    const delivery = await this.deliveryQueue.find(endpointId, deliveryId);
    if (!delivery) throw new DeliveryNotFoundError();
    return delivery;
  }

  private entry(action: AuditAction, endpoint: WebhookEndpoint, actor: Actor, at: Date, details: Record<string, unknown> = {}): AuditEntry {
    return {
      id: this.ids.newId('aud'),
      at,
      action,
      keyId: null,
      reason: null,
      // never a secret, nor the address (whose query may carry the receiver's own token)
      details: { webhook_id: endpoint.id, events: endpoint.events, enabled: endpoint.enabled, ...details },
      actor,
    };
  }
}

function checkEvents(events: readonly WebhookEventType[]): void {
  if (events.length === 0) throw new InvalidRequestError('events must name at least one event type');
}
