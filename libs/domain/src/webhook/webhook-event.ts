import { utcDayOf } from '../analytics/usage-tally';
import { type ApiKey } from '../api-key/api-key';
import { type Device, type DeviceDeactivationReason } from '../device/device';
import { type Model } from '../model/model';
import { toSecondTimestamp } from '../shared/timestamp';

/** What an endpoint can subscribe to (CONTRACT 20). `webhook.test` is sent only on request, to one endpoint. */
export const WEBHOOK_EVENT_TYPES = [
  'key.issued',
  'key.revoked',
  'key.rotated',
  'key.expiring',
  'quota.warning',
  'quota.exhausted',
  'model.published',
  'model.deleted',
  'device.activated',
  'device.deactivated',
  'device.limit_reached',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookMessageType = WebhookEventType | 'webhook.test';

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Something that happened, recorded in the outbox in the same transaction as
 * the change that caused it. Its data names a key by id and prefix, never by
 * the key or its digest.
 */
export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly occurredAt: Date;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The body every endpoint receives: `{ type, timestamp, data }`, as JSON text (signed as it is sent). */
export function webhookBodyOf(type: WebhookMessageType, occurredAt: Date, data: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}

/** How every event names a key: its id, its display prefix and its license. */
export function keyDataOf(key: ApiKey): Record<string, unknown> {
  return { key_id: key.id, key_prefix: key.props.displayPrefix, license_id: key.licenseId };
}

export function keyIssuedEvent(id: string, key: ApiKey, at: Date): WebhookEvent {
  return {
    id,
    type: 'key.issued',
    occurredAt: at,
    data: {
      ...keyDataOf(key),
      user_id: key.props.userId,
      license_type: key.licenseType,
      environment: key.props.environment,
      expires_at: toSecondTimestamp(key.expiresAt),
    },
  };
}

export function keyRevokedEvent(id: string, key: ApiKey, at: Date, withSuccessor: string | null): WebhookEvent {
  return {
    id,
    type: 'key.revoked',
    occurredAt: at,
    data: { ...keyDataOf(key), ...(withSuccessor === null ? {} : { with_successor: withSuccessor }) },
  };
}

export function keyRotatedEvent(id: string, predecessor: ApiKey, successor: ApiKey, previousKeyExpiresAt: Date, at: Date): WebhookEvent {
  return {
    id,
    type: 'key.rotated',
    occurredAt: at,
    data: {
      ...keyDataOf(successor),
      rotated_from: { key_id: predecessor.id, key_prefix: predecessor.props.displayPrefix },
      previous_key_expires_at: toSecondTimestamp(previousKeyExpiresAt),
    },
  };
}

/** How long before a key's expiry `key.expiring` is sent (once per key). */
export const KEY_EXPIRING_NOTICE_MS = 7 * 24 * 3600 * 1000;

/** The one `key.expiring` of a key: its id is the key's, so it is recorded once whoever records it. */
export function keyExpiringEvent(key: { id: string; prefix: string; licenseId: string; expiresAt: Date }, at: Date): WebhookEvent {
  return {
    id: keyExpiringEventId(key.id),
    type: 'key.expiring',
    occurredAt: at,
    data: { key_id: key.id, key_prefix: key.prefix, license_id: key.licenseId, expires_at: toSecondTimestamp(key.expiresAt) },
  };
}

export function keyExpiringEventId(keyId: string): string {
  return `key.expiring:${keyId}`;
}

export function modelPublishedEvent(id: string, model: Model, at: Date): WebhookEvent {
  return {
    id,
    type: 'model.published',
    occurredAt: at,
    data: { name: model.name, version: model.version, checksum: model.checksum, size_bytes: model.sizeBytes },
  };
}

export function modelDeletedEvent(id: string, model: Model, at: Date): WebhookEvent {
  return { id, type: 'model.deleted', occurredAt: at, data: { name: model.name, version: model.version } };
}

/**
 * How every device event names its device (CONTRACT 23): its id, the key that made the change (the
 * calling key; the license's current key for a lapsed lease), its license, its name and platform, and
 * when it was activated and last seen. Never the fingerprint nor its digest.
 */
function deviceDataOf(device: Device, keyId: string): Record<string, unknown> {
  return {
    device_id: device.id,
    key_id: keyId,
    license_id: device.licenseId,
    name: device.name,
    platform: device.platform,
    activated_at: toSecondTimestamp(device.activatedAt),
    last_seen_at: toSecondTimestamp(device.lastSeenAt),
  };
}

/** A device took a seat (a 201 activation, not the 200 of a fingerprint already active). */
export function deviceActivatedEvent(id: string, device: Device, keyId: string, at: Date): WebhookEvent {
  return { id, type: 'device.activated', occurredAt: at, data: deviceDataOf(device, keyId) };
}

/** A device gave its seat back: its SDK said so (`sdk`), an operator did (`operator`), or its lease lapsed (`lease_expired`). */
export function deviceDeactivatedEvent(
  id: string,
  device: Device,
  keyId: string,
  reason: DeviceDeactivationReason,
  at: Date,
): WebhookEvent {
  return {
    id,
    type: 'device.deactivated',
    occurredAt: at,
    data: { ...deviceDataOf(device, keyId), deactivated_at: toSecondTimestamp(at), reason },
  };
}

/**
 * The one `device.limit_reached` of a license and UTC day: its id names both, so the outbox records
 * it once however many refused activations, on however many instances, record it (recordOnce).
 */
export function deviceLimitReachedEvent(
  refused: { licenseId: string; keyId: string; maxDevices: number; active: number },
  at: Date,
): WebhookEvent {
  return {
    id: `device.limit_reached:${refused.licenseId}:${utcDayOf(at)}`,
    type: 'device.limit_reached',
    occurredAt: at,
    data: { key_id: refused.keyId, license_id: refused.licenseId, max_devices: refused.maxDevices, active: refused.active },
  };
}
