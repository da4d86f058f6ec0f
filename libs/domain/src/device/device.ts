import { type DevicePolicy, MAX_DEVICES_BOUND } from '../license/tier-catalog';

/** A fingerprint's length bounds (CONTRACT 23): the SDK derives it, e.g. a hash of the machine id. */
export const FINGERPRINT_LENGTH = { min: 16, max: 256 } as const;

/** The rule a fingerprint breaks, as a request's message says it. */
export const FINGERPRINT_RULE = `fingerprint must be a string of ${FINGERPRINT_LENGTH.min} to ${FINGERPRINT_LENGTH.max} characters`;

/** Whether `value` is a fingerprint of the allowed length (in characters, as class-validator counts them). */
export function isFingerprint(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const length = [...value].length;
  return length >= FINGERPRINT_LENGTH.min && length <= FINGERPRINT_LENGTH.max;
}

/** The longest device name and platform a device may give itself. */
export const MAX_DEVICE_NAME_LENGTH = 200;
export const MAX_DEVICE_PLATFORM_LENGTH = 64;

/** Why a device stopped holding its seat (CONTRACT 23): its SDK said so, an operator did, or its lease lapsed. */
export const DEVICE_DEACTIVATION_REASONS = ['sdk', 'operator', 'lease_expired'] as const;
export type DeviceDeactivationReason = (typeof DEVICE_DEACTIVATION_REASONS)[number];

/**
 * A device of a license (CONTRACT 23). Its fingerprint is kept only as a SHA-256 digest (hex),
 * which the repository holds and never hands out with the device.
 */
export interface Device {
  readonly id: string;
  /** The license (chain of rotated keys) whose seat it holds: seats are the license's, not a key's. */
  readonly licenseId: string;
  readonly name: string | null;
  readonly platform: string | null;
  readonly activatedAt: Date;
  readonly lastSeenAt: Date;
  readonly deactivatedAt: Date | null;
  readonly deactivationReason: DeviceDeactivationReason | null;
}

/**
 * The earliest `last_seen_at` a device may have and still hold its seat at `now`: `null` when the tier
 * gives no lease (a device holds its seat until deactivated). Seats are judged by it when they are
 * counted, so a lapsed lease frees its seat without any sweeper.
 */
export function seatHeldSince(policy: Pick<DevicePolicy, 'leaseSeconds'>, now: Date): Date | null {
  return policy.leaseSeconds === null ? null : new Date(now.getTime() - policy.leaseSeconds * 1000);
}

/** When the device's lease ends if it is not seen again (`null`: no lease). */
export function leaseExpiresAt(device: Pick<Device, 'lastSeenAt'>, policy: Pick<DevicePolicy, 'leaseSeconds'>): Date | null {
  return policy.leaseSeconds === null ? null : new Date(device.lastSeenAt.getTime() + policy.leaseSeconds * 1000);
}

/** Whether the device holds a seat at `now`: not deactivated, and seen within its lease. */
export function holdsSeat(
  device: Pick<Device, 'lastSeenAt' | 'deactivatedAt'>,
  policy: Pick<DevicePolicy, 'leaseSeconds'>,
  now: Date,
): boolean {
  if (device.deactivatedAt !== null) return false;
  const since = seatHeldSince(policy, now);
  return since === null || device.lastSeenAt.getTime() > since.getTime();
}

/**
 * The license's `max_devices` override (CONTRACT 23): an operator's number of seats for the license, in
 * place of its tier's; the license's, so shared by its rotated keys. `null`: none, the tier's applies.
 */
export type MaxDevicesOverride = number | null;

/** The rule a `max_devices` override breaks, as a request's message says it. */
export const MAX_DEVICES_RULE = `max_devices must be an integer from 0 to ${MAX_DEVICES_BOUND}, or null for the tier's`;

/** Whether `value` is a number of seats an override may give (null, going back to the tier's, is not one). */
export function isMaxDevices(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_DEVICES_BOUND;
}

/**
 * The seats the license has (`null`: unlimited): its override when an operator set one, else its tier's.
 * Lowering it below the active count is allowed: the devices keep their seats, and no device is activated
 * until fewer than the new number are active (hasFreeSeat).
 */
export function maxDevicesOf(policy: Pick<DevicePolicy, 'maxDevices'>, override: MaxDevicesOverride): number | null {
  return override ?? policy.maxDevices;
}

/** Whether one more device may be activated: `max` null is unlimited; an active count at or above it (a lowered limit) refuses. */
export function hasFreeSeat(maxDevices: number | null, active: number): boolean {
  return maxDevices === null || active < maxDevices;
}

/** A device's state as operators see it: holding its seat, its lease lapsed (not yet marked), or deactivated. */
export type DeviceStatus = 'active' | 'lapsed' | 'deactivated';

export function deviceStatusOf(
  device: Pick<Device, 'lastSeenAt' | 'deactivatedAt'>,
  policy: Pick<DevicePolicy, 'leaseSeconds'>,
  now: Date,
): DeviceStatus {
  if (device.deactivatedAt !== null) return 'deactivated';
  return holdsSeat(device, policy, now) ? 'active' : 'lapsed';
}

/** The fingerprint's SHA-256 (UTF-8, lowercase hex): all the service keeps of it, and the `device` claim of an offline license. */
export abstract class FingerprintDigest {
  abstract of(fingerprint: string): string;
}
