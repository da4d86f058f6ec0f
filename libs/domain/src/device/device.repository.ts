import { type Device, type DeviceDeactivationReason, type MaxDevicesOverride } from './device';

/** What an activation asks for: the seat rules (limit, lease cut-off) travel with it, the count is the repository's. */
export interface DeviceActivation {
  readonly id: string;
  readonly licenseId: string;
  readonly fingerprintDigest: string;
  readonly name: string | null;
  readonly platform: string | null;
  readonly at: Date;
  readonly maxDevices: number | null;
  /** The earliest `last_seen_at` that still holds a seat (`seatHeldSince`), null without a lease. */
  readonly heldSince: Date | null;
}

export type DeviceActivationOutcome =
  | { readonly kind: 'activated'; readonly device: Device }
  | { readonly kind: 'already_active'; readonly device: Device }
  | { readonly kind: 'limit_reached'; readonly maxDevices: number; readonly active: number };

/** The devices of licenses (CONTRACT 23); fingerprints only as SHA-256 digests. */
export abstract class DeviceRepository {
  /**
   * Activates a fingerprint on a license, exactly: the license is locked while its seats are counted,
   * so of concurrent activations on any number of instances no more succeed than there are free seats.
   * A device of that fingerprint still holding its seat is answered as it is (seen now); one whose lease
   * lapsed unmarked is marked `lease_expired` first.
   */
  abstract activate(activation: DeviceActivation): Promise<DeviceActivationOutcome>;

  /** The license's device of that fingerprint that holds a seat (active, seen since `heldSince`), if any. */
  abstract findHolding(licenseId: string, fingerprintDigest: string, heldSince: Date | null): Promise<Device | null>;

  /** Moves `last_seen_at` to `at` if it is older than `before` (a heartbeat passes `at`); whether a row moved. */
  abstract touch(deviceId: string, at: Date, before: Date): Promise<boolean>;

  /** Marks the device deactivated if it is not already; whether this call did. */
  abstract deactivate(deviceId: string, reason: DeviceDeactivationReason, at: Date): Promise<boolean>;

  /** The license's devices, every one it ever had (active and deactivated), in no particular order. */
  abstract listByLicense(licenseId: string): Promise<Device[]>;

  /** The device of that id, whatever its license or state. */
  abstract findById(deviceId: string): Promise<Device | null>;

  /** How many devices of every license are not deactivated (a lapsed lease counts until it is marked `lease_expired`). */
  abstract countNotDeactivated(): Promise<number>;

  /** The license's `max_devices` override, null when it has none (its tier's applies). */
  abstract maxDevicesOverrideOf(licenseId: string): Promise<MaxDevicesOverride>;

  /** Sets the license's override, or removes it (`null`: back to the tier's). */
  abstract setMaxDevicesOverride(licenseId: string, maxDevices: MaxDevicesOverride): Promise<void>;
}
