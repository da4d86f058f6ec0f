import { type Device, type DeviceChangeRecords, type IdGenerator, SYSTEM_ACTOR, deviceDeactivatedEvent } from '@svc/domain';

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
    audit: [
      {
        id: ids.newId('aud'),
        at,
        action: 'device.deactivated',
        keyId,
        reason: null,
        details: { device_id: device.id, license_id: device.licenseId, reason: 'lease_expired' },
        actor: SYSTEM_ACTOR,
      },
    ],
    events: [deviceDeactivatedEvent(ids.newId('wev'), device, keyId, 'lease_expired', at)],
  };
}
