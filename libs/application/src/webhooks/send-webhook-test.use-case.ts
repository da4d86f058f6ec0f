import { Injectable } from '@nestjs/common';
import {
  type Actor,
  Clock,
  IdGenerator,
  type WebhookDelivery,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
  webhookBodyOf,
} from '@svc/domain';
import { webhookAuditEntry, webhookEndpointOrNotFound } from './webhook-endpoint-rules';

/** A `webhook.test` message to one endpoint only (CONTRACT 20), delivered like any other and listed among its deliveries. Audited. */
@Injectable()
export class SendWebhookTest {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveryQueue: WebhookDeliveryQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: Actor): Promise<WebhookDelivery> {
    const endpoint = await webhookEndpointOrNotFound(this.endpoints, id);
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
    await this.deliveryQueue.add(
      delivery,
      webhookAuditEntry(this.ids, 'webhook.tested', endpoint, actor, now, { delivery_id: delivery.id }),
    );
    return delivery;
  }
}
