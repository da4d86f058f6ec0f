import {
  type Actor,
  type AuditEntry,
  type Device,
  type DeviceChangeRecords,
  type DeviceDeactivationReason,
  type IdGenerator,
  SYSTEM_ACTOR,
  deviceDeactivatedEvent,
} from '@svc/domain';

/**
 * The audit entry of a device's activation or deactivation (CONTRACT 23), under `keyId` (the calling key, or
 * the key an operator named) with its actor; it names the device, never its fingerprint nor the digest.
 */
export function deviceAuditEntry(
  ids: IdGenerator,
  action: 'device.activated' | 'device.deactivated',
  device: Device,
  keyId: string,
  actor: Actor,
  at: Date,
  reason?: DeviceDeactivationReason,
): AuditEntry {
  const details = { device_id: device.id, license_id: device.licenseId, name: device.name, platform: device.platform };
  return { id: ids.newId('aud'), at, action, keyId, reason: null, details: reason ? { ...details, reason } : details, actor };
}

/** The records of several changes made in one transaction, written together. */
export function joinedRecords(parts: readonly DeviceChangeRecords[]): DeviceChangeRecords {
  return { audit: parts.flatMap((part) => part.audit), events: parts.flatMap((part) => part.events) };
}

/**
 * What marking a lapsed lease `lease_expired` writes (CONTRACT 23), whoever notices it (the lease job,
 * or an activation of the same fingerprint): an audit entry by `system` and a `device.deactivated`
 * with reason `lease_expired`, both naming `keyId` (the calling key, or the license's current key).
 */
export function leaseExpiryRecords(ids: IdGenerator, device: Device, keyId: string, at: Date): DeviceChangeRecords {
  return {
    audit: [deviceAuditEntry(ids, 'device.deactivated', device, keyId, SYSTEM_ACTOR, at, 'lease_expired')],
    events: [deviceDeactivatedEvent(ids.newId('wev'), device, keyId, 'lease_expired', at)],
  };
}
