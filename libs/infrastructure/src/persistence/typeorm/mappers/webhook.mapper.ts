import {
  type DeliveryStatus,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookMessageType,
} from '@svc/domain';
import { type SecretsCipher } from '../../../crypto/secrets-cipher';
import { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord } from '../records/webhook.records';

export class WebhookMapper {
  /** The endpoint of a stored record, its secrets opened by `cipher` (encrypted at rest with SECRETS_KEY). */
  static endpointToDomain(record: WebhookEndpointRecord, cipher: SecretsCipher): WebhookEndpoint {
    return {
      id: record.id,
      url: record.url,
      events: JSON.parse(record.events) as WebhookEventType[],
      description: record.description,
      enabled: record.disabledAt === null,
      secret: cipher.open(record.secret, `webhook_endpoints.secret of ${record.id}`),
      previousSecret:
        record.previousSecret === null ? null : cipher.open(record.previousSecret, `webhook_endpoints.previous_secret of ${record.id}`),
      previousSecretExpiresAt: record.previousSecretExpiresAt,
      failingSince: record.failingSince,
      disabledReason: record.disabledReason,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  /** `disabledAt`: kept from the stored record while still disabled, `at` when newly disabled; the secrets sealed by `cipher`. */
  static endpointToRecord(endpoint: WebhookEndpoint, disabledAt: Date | null, cipher: SecretsCipher): WebhookEndpointRecord {
    return Object.assign(new WebhookEndpointRecord(), {
      id: endpoint.id,
      url: endpoint.url,
      events: JSON.stringify(endpoint.events),
      description: endpoint.description,
      secret: cipher.seal(endpoint.secret),
      previousSecret: endpoint.previousSecret === null ? null : cipher.seal(endpoint.previousSecret),
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
      failingSince: endpoint.failingSince,
      disabledAt: endpoint.enabled ? null : disabledAt,
      disabledReason: endpoint.enabled ? null : endpoint.disabledReason,
      createdAt: endpoint.createdAt,
      updatedAt: endpoint.updatedAt,
    });
  }

  static eventToRecord(event: WebhookEvent): WebhookEventRecord {
    return Object.assign(new WebhookEventRecord(), {
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt,
      data: JSON.stringify(event.data),
      fannedOutAt: null,
    });
  }

  static eventToDomain(record: WebhookEventRecord): WebhookEvent {
    return {
      id: record.id,
      type: record.type as WebhookEventType,
      occurredAt: record.occurredAt,
      data: JSON.parse(record.data) as Record<string, unknown>,
    };
  }

  static deliveryToRecord(delivery: WebhookDelivery): WebhookDeliveryRecord {
    return Object.assign(new WebhookDeliveryRecord(), { ...delivery, leaseOwner: null, leaseExpiresAt: null });
  }

  static deliveryToDomain(record: WebhookDeliveryRecord): WebhookDelivery {
    return {
      id: record.id,
      endpointId: record.endpointId,
      eventId: record.eventId,
      eventType: record.eventType as WebhookMessageType,
      body: record.body,
      status: record.status as DeliveryStatus,
      attempts: Number(record.attempts),
      nextAttemptAt: record.nextAttemptAt,
      lastAttemptAt: record.lastAttemptAt,
      lastStatusCode: record.lastStatusCode === null ? null : Number(record.lastStatusCode),
      lastError: record.lastError,
      createdAt: record.createdAt,
    };
  }
}
