import { Injectable } from '@nestjs/common';
import {
  type Actor,
  Clock,
  IdGenerator,
  type WebhookEndpoint,
  type WebhookEndpointChange,
  WebhookEndpointRepository,
  WebhookNotFoundError,
} from '@svc/domain';
import { WebhookTargets } from './webhook-ports';
import { checkWebhookEvents, webhookAuditEntry, webhookEndpointOrNotFound } from './webhook-endpoint-rules';

/**
 * Changes an endpoint's address (checked again), events, description or enabled state (CONTRACT 20);
 * enabled again, it starts afresh (not failing, no longer disabled by the service). Audited with the fields changed.
 */
@Injectable()
export class UpdateWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly targets: WebhookTargets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, change: WebhookEndpointChange, actor: Actor): Promise<WebhookEndpoint> {
    const existing = await webhookEndpointOrNotFound(this.endpoints, id);
    if (change.events !== undefined) checkWebhookEvents(change.events);
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
    const audit = webhookAuditEntry(this.ids, 'webhook.updated', updated, actor, now, { changed: fields });
    if (!(await this.endpoints.update(updated, audit))) throw new WebhookNotFoundError();
    return updated;
  }
}
