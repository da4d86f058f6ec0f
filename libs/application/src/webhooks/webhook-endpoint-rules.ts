import {
  type Actor,
  type AuditAction,
  type AuditEntry,
  type IdGenerator,
  InvalidRequestError,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookEventType,
  WebhookNotFoundError,
} from '@svc/domain';

/** An endpoint with its signing secret: shown here once, never again. */
export interface WebhookWithSecret {
  readonly endpoint: WebhookEndpoint;
  readonly secret: string;
}

/** The endpoint, or WEBHOOK_NOT_FOUND. */
export async function webhookEndpointOrNotFound(endpoints: WebhookEndpointRepository, id: string): Promise<WebhookEndpoint> {
  const endpoint = await endpoints.find(id);
  if (!endpoint) throw new WebhookNotFoundError();
  return endpoint;
}

/** An endpoint subscribes to at least one event type. */
export function checkWebhookEvents(events: readonly WebhookEventType[]): void {
  if (events.length === 0) throw new InvalidRequestError('events must name at least one event type');
}

/** The audit entry of a change to an endpoint (CONTRACT 20, 21), written in the change's transaction. */
export function webhookAuditEntry(
  ids: IdGenerator,
  action: AuditAction,
  endpoint: WebhookEndpoint,
  actor: Actor,
  at: Date,
  details: Record<string, unknown> = {},
): AuditEntry {
  return {
    id: ids.newId('aud'),
    at,
    action,
    keyId: null,
    reason: null,
    // never a secret, nor the address (whose query may carry the receiver's own token)
    details: { webhook_id: endpoint.id, events: endpoint.events, enabled: endpoint.enabled, ...details },
    actor,
  };
}
