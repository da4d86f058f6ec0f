import { Injectable } from '@nestjs/common';
import { type Actor, Clock, IdGenerator, WebhookEndpointRepository, WebhookNotFoundError } from '@svc/domain';
import { webhookAuditEntry, webhookEndpointOrNotFound } from './webhook-endpoint-rules';

/** Deletes an endpoint with its deliveries (CONTRACT 20); audited. */
@Injectable()
export class DeleteWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const existing = await webhookEndpointOrNotFound(this.endpoints, id);
    const audit = webhookAuditEntry(this.ids, 'webhook.deleted', existing, actor, this.clock.now());
    if (!(await this.endpoints.delete(id, audit))) throw new WebhookNotFoundError();
  }
}
