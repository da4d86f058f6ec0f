import { Injectable } from '@nestjs/common';
import {
  type Actor,
  Clock,
  DeliveryNotFoundError,
  IdGenerator,
  type WebhookDelivery,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
} from '@svc/domain';
import { webhookAuditEntry, webhookEndpointOrNotFound } from './webhook-endpoint-rules';

/**
 * A delivery due again now, whatever its status (CONTRACT 20): one more attempt, its attempts kept
 * (failed again if that fails past the schedule). Audited.
 */
@Injectable()
export class RetryWebhookDelivery {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveryQueue: WebhookDeliveryQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(endpointId: string, deliveryId: string, actor: Actor): Promise<WebhookDelivery> {
    const endpoint = await webhookEndpointOrNotFound(this.endpoints, endpointId);
    const now = this.clock.now();
    const audit = webhookAuditEntry(this.ids, 'webhook.delivery_retried', endpoint, actor, now, { delivery_id: deliveryId });
    if (!(await this.deliveryQueue.retry(endpointId, deliveryId, now, audit))) throw new DeliveryNotFoundError();
    const delivery = await this.deliveryQueue.find(endpointId, deliveryId);
    if (!delivery) throw new DeliveryNotFoundError();
    return delivery;
  }
}
