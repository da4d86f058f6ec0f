import { type WebhookDelivery, type WebhookEndpoint, toSecondTimestamp } from '@svc/domain';
import { encodeCursor } from '../admin/page-cursor';
import type {
  WebhookDeliveryPageResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './webhook.response';

/** Webhook endpoints and deliveries as their response classes (webhook.response.ts): never a secret. */

const stamp = (at: Date | null): string | null => (at === null ? null : toSecondTimestamp(at));

/** What stands for each hidden part of an endpoint's address (maskedWebhookUrl). */
export const WEBHOOK_URL_MASK = '***';

/**
 * An endpoint's address as a role that may not change it (below `admin`,
 * which lacks `webhooks.write`) sees it: every query value replaced by `***`
 * (`?token=abc&x=1` -> `?token=***&x=***`; a part without `=` such as `?abc`
 * is all value -> `?***`), a fragment by `#***`, and a user or password (an
 * endpoint registered before they were refused) by `***@`. Scheme, host, port
 * and path are shown as they are, so the endpoint can still be recognised.
 */
export function maskedWebhookUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 || hashAt === url.length - 1 ? url.slice(hashAt === -1 ? url.length : hashAt) : `#${WEBHOOK_URL_MASK}`;
  const queryAt = beforeHash.indexOf('?');
  const base = (queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)).replace(
    /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/,
    `$1${WEBHOOK_URL_MASK}@`,
  );
  if (queryAt === -1) return base + fragment;
  const query = beforeHash
    .slice(queryAt + 1)
    .split('&')
    .map((part) => {
      if (part === '') return part;
      const equals = part.indexOf('=');
      return equals === -1 ? WEBHOOK_URL_MASK : `${part.slice(0, equals)}=${WEBHOOK_URL_MASK}`;
    })
    .join('&');
  return `${base}?${query}${fragment}`;
}

/** How an endpoint is shown: `maskUrl` for a caller who may not change endpoints (maskedWebhookUrl). */
export interface WebhookEndpointViewOptions {
  readonly maskUrl?: boolean;
}

export function webhookEndpointViewOf(
  endpoint: WebhookEndpoint,
  at: Date,
  options: WebhookEndpointViewOptions = {},
): WebhookEndpointResponse {
  const overlap = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > at;
  return {
    id: endpoint.id,
    url: options.maskUrl ? maskedWebhookUrl(endpoint.url) : endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.enabled ? null : endpoint.disabledReason,
    failing_since: stamp(endpoint.failingSince),
    previous_secret_expires_at: overlap ? stamp(endpoint.previousSecretExpiresAt) : null,
    created_at: toSecondTimestamp(endpoint.createdAt),
    updated_at: toSecondTimestamp(endpoint.updatedAt),
  };
}

export function webhookEndpointWithSecretViewOf(endpoint: WebhookEndpoint, secret: string, at: Date): WebhookEndpointWithSecretResponse {
  return { ...webhookEndpointViewOf(endpoint, at), secret };
}

export function webhookDeliveryViewOf(delivery: WebhookDelivery): WebhookDeliveryResponse {
  return {
    id: delivery.id,
    event_type: delivery.eventType,
    event_id: delivery.eventId,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    last_attempt_at: stamp(delivery.lastAttemptAt),
    next_attempt_at: delivery.status === 'pending' ? stamp(delivery.nextAttemptAt) : null,
    created_at: stamp(delivery.createdAt) ?? '',
  };
}

/** A page of deliveries, newest first, and the cursor of the next (null: the last page). */
export function webhookDeliveryPageOf(deliveries: readonly WebhookDelivery[], limit: number): WebhookDeliveryPageResponse {
  const last = deliveries[deliveries.length - 1];
  return {
    deliveries: deliveries.map(webhookDeliveryViewOf),
    next_cursor: deliveries.length === limit && last ? encodeCursor('deliveries', { at: last.createdAt, id: last.id }) : null,
  };
}
