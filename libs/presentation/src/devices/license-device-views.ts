import type { LicenseDevice, LicenseDevices } from '@svc/application';
import { type Device, toSecondTimestamp } from '@svc/domain';
import type { LicenseDeviceListResponse, LicenseDeviceResponse } from './license-device.response';

/** Devices as operators see them (license-device.response.ts), for the API and the CLI's `--json`. */

export function licenseDeviceViewOf(seat: LicenseDevice): LicenseDeviceResponse {
  const d = seat.device;
  return {
    device_id: d.id,
    name: d.name,
    platform: d.platform,
    status: seat.status,
    activated_at: toSecondTimestamp(d.activatedAt),
    last_seen_at: toSecondTimestamp(d.lastSeenAt),
    lease_expires_at: seat.leaseExpiresAt === null ? null : toSecondTimestamp(seat.leaseExpiresAt),
    deactivated_at: d.deactivatedAt === null ? null : toSecondTimestamp(d.deactivatedAt),
    deactivation_reason: d.deactivationReason,
  };
}

export function licenseDeviceListViewOf(listed: LicenseDevices): LicenseDeviceListResponse {
  return {
    key_id: listed.key.id,
    license_id: listed.key.licenseId,
    active: listed.devices.filter((d) => d.status === 'active').length,
    devices: listed.devices.map(licenseDeviceViewOf),
  };
}

/** The device an operator's deactivation answers: deactivated, by whom it says (an earlier one's reason when it was already). */
export function deactivatedLicenseDeviceViewOf(device: Device): LicenseDeviceResponse {
  return licenseDeviceViewOf({ device, status: 'deactivated', leaseExpiresAt: null });
}
