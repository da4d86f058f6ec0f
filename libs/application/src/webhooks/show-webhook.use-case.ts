import { Injectable } from '@nestjs/common';
import { type WebhookEndpoint, WebhookEndpointRepository } from '@svc/domain';
import { webhookEndpointOrNotFound } from './webhook-endpoint-rules';

/** One webhook endpoint (CONTRACT 20); WEBHOOK_NOT_FOUND when there is none. */
@Injectable()
export class ShowWebhook {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  execute(id: string): Promise<WebhookEndpoint> {
    return webhookEndpointOrNotFound(this.endpoints, id);
  }
}
