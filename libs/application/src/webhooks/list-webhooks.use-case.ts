import { Injectable } from '@nestjs/common';
import { type WebhookEndpoint, WebhookEndpointRepository } from '@svc/domain';

/** Every webhook endpoint (CONTRACT 20). */
@Injectable()
export class ListWebhooks {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  execute(): Promise<WebhookEndpoint[]> {
    return this.endpoints.list();
  }
}
