import { Injectable } from '@nestjs/common';
import {
  type DeliveryPosition,
  type DeliveryStatus,
  type WebhookDelivery,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
} from '@svc/domain';
import { webhookEndpointOrNotFound } from './webhook-endpoint-rules';

export interface ListDeliveriesInput {
  readonly endpointId: string;
  readonly status?: DeliveryStatus;
  readonly after?: DeliveryPosition;
  readonly limit: number;
}

/** An endpoint's deliveries (CONTRACT 20), a page at a time; WEBHOOK_NOT_FOUND for an unknown endpoint. */
@Injectable()
export class ListWebhookDeliveries {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveryQueue: WebhookDeliveryQueue,
  ) {}

  async execute(input: ListDeliveriesInput): Promise<WebhookDelivery[]> {
    await webhookEndpointOrNotFound(this.endpoints, input.endpointId);
    return this.deliveryQueue.list(input);
  }
}
