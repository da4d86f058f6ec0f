import { Injectable } from '@nestjs/common';
import {
  type Actor,
  Clock,
  IdGenerator,
  RandomSource,
  type WebhookEndpoint,
  WebhookEndpointRepository,
  type WebhookEventType,
  generateWebhookSecret,
} from '@svc/domain';
import { WebhookTargets } from './webhook-ports';
import { type WebhookWithSecret, checkWebhookEvents, webhookAuditEntry } from './webhook-endpoint-rules';

export interface CreateWebhookInput {
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description?: string | null;
  readonly actor: Actor;
}

/** Registers a webhook endpoint (CONTRACT 20): its address checked by WebhookTargets, its signing secret shown once; audited. */
@Injectable()
export class CreateWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly targets: WebhookTargets,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateWebhookInput): Promise<WebhookWithSecret> {
    checkWebhookEvents(input.events);
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
    await this.endpoints.create(endpoint, webhookAuditEntry(this.ids, 'webhook.created', endpoint, input.actor, now));
    return { endpoint, secret };
  }
}
