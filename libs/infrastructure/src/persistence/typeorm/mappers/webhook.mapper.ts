import {
  type DeliveryStatus,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookMessageType,
} from '@svc/domain';
import { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord } from '../records/webhook.records';

export class WebhookMapper {
  static endpointToDomain(record: WebhookEndpointRecord): WebhookEndpoint {
    return {
      id: record.id,
      url: record.url,
      events: JSON.parse(record.events) as WebhookEventType[],
      description: record.description,
      enabled: record.disabledAt === null,
      secret: record.secret,
      previousSecret: record.previousSecret,
      previousSecretExpiresAt: record.previousSecretExpiresAt,
      failingSince: record.failingSince,
      disabledReason: record.disabledReason,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  /** `disabledAt`: kept from the stored record while still disabled, `at` when newly disabled. */
  static endpointToRecord(endpoint: WebhookEndpoint, disabledAt: Date | null): WebhookEndpointRecord {
    return Object.assign(new WebhookEndpointRecord(), {
      id: endpoint.id,
      url: endpoint.url,
      events: JSON.stringify(endpoint.events),
      description: endpoint.description,
      secret: endpoint.secret,
      previousSecret: endpoint.previousSecret,
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
