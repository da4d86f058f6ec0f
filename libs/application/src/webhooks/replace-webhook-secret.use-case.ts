import { Injectable } from '@nestjs/common';
import {
  type Actor,
  Clock,
  IdGenerator,
  RandomSource,
  SECRET_OVERLAP_MS,
  type WebhookEndpoint,
  WebhookEndpointRepository,
  WebhookNotFoundError,
  generateWebhookSecret,
} from '@svc/domain';
import { type WebhookWithSecret, webhookAuditEntry, webhookEndpointOrNotFound } from './webhook-endpoint-rules';

/** A new signing secret, shown once (CONTRACT 20); the one it replaces keeps signing beside it for SECRET_OVERLAP_MS. Audited. */
@Injectable()
export class ReplaceWebhookSecret {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: Actor): Promise<WebhookWithSecret> {
    const existing = await webhookEndpointOrNotFound(this.endpoints, id);
    const now = this.clock.now();
    const secret = generateWebhookSecret(this.random);
    const updated: WebhookEndpoint = {
      ...existing,
      secret,
      previousSecret: existing.secret,
      previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
      updatedAt: now,
    };
    const audit = webhookAuditEntry(this.ids, 'webhook.secret_replaced', updated, actor, now, {
      previous_secret_expires_at: updated.previousSecretExpiresAt?.toISOString(),
    });
    if (!(await this.endpoints.update(updated, audit))) throw new WebhookNotFoundError();
    return { endpoint: updated, secret };
  }
}
