import { type AuditEntry } from '../audit/audit-entry';
import { type LicenseType } from '../license/license-type';
import { type WebhookEvent } from '../webhook/webhook-event';
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

/**
 * The rows a device change writes beside it, in its transaction (as KeyChangeRecords do for keys): all
 * of them with the change, none when the change does not happen. Its audit entries, and its webhook
 * events (the outbox, CONTRACT 20), each recorded once by its id: the one `device.limit_reached` of a
 * license and day is recorded by the first refusal and ignored after.
 */
export interface DeviceChangeRecords {
  readonly audit: readonly AuditEntry[];
  readonly events: readonly WebhookEvent[];
}

/**
 * What an activation writes beside its outcome, asked of the caller inside its transaction: given the
 * outcome and the devices of the same fingerprint whose lease had lapsed unmarked (marked `lease_expired` on the way).
 */
export type RecordsOfActivation = (outcome: DeviceActivationOutcome, lapsed: readonly Device[]) => DeviceChangeRecords;

/** A tier's lease: its devices still marked active but last seen at or before `heldSince` have lost their seat. */
export interface DeviceLease {
  readonly licenseType: LicenseType;
  readonly heldSince: Date;
}

/** A device whose lease lapsed, with the license's current key (the one its events and audit entry name). */
export interface LapsedDevice {
  readonly device: Device;
  readonly keyId: string;
  /** The tier whose lease it outlived. */
  readonly licenseType: LicenseType;
}

/** A device holding a seat: its license, and the SHA-256 digest of its fingerprint (the offline license's `device` claim). */
export interface HeldSeat {
  readonly licenseId: string;
  readonly digest: string;
}

/** The devices of licenses (CONTRACT 23); fingerprints only as SHA-256 digests. */
export abstract class DeviceRepository {
  /**
   * Activates a fingerprint on a license, exactly: the license is locked while its seats are counted,
   * so of concurrent activations on any number of instances no more succeed than there are free seats.
   * A device of that fingerprint still holding its seat is answered as it is (seen now); one whose lease
   * lapsed unmarked is marked `lease_expired` first. What `recordsOf` answers is written in the same transaction.
   */
  abstract activate(activation: DeviceActivation, recordsOf: RecordsOfActivation): Promise<DeviceActivationOutcome>;

  /** The license's device of that fingerprint that holds a seat (active, seen since `heldSince`), if any. */
  abstract findHolding(licenseId: string, fingerprintDigest: string, heldSince: Date | null): Promise<Device | null>;

  /** Moves `last_seen_at` to `at` if it is older than `before` (a heartbeat passes `at`); whether a row moved. */
  abstract touch(deviceId: string, at: Date, before: Date): Promise<boolean>;

  /** Marks the device deactivated if it is not already, with its records; whether this call did (only then are the records written). */
  abstract deactivate(deviceId: string, reason: DeviceDeactivationReason, at: Date, records: DeviceChangeRecords): Promise<boolean>;

  /**
   * Up to `limit` devices still marked active whose lease has lapsed: of a license whose current key's
   * tier has a lease in `leases`, last seen at or before that lease's `heldSince`; the longest unseen first.
   */
  abstract lapsed(leases: readonly DeviceLease[], limit: number): Promise<LapsedDevice[]>;

  /**
   * Marks the device `lease_expired` at `at`, with its records, only if it is still active and last seen
   * at or before `heldSince` (not seen meanwhile): of instances releasing the same device, one does.
   */
  abstract releaseLapsed(deviceId: string, heldSince: Date, at: Date, records: DeviceChangeRecords): Promise<boolean>;

  /** The license's devices, every one it ever had (active and deactivated), in no particular order. */
  abstract listByLicense(licenseId: string): Promise<Device[]>;

  /** The device of that id, whatever its license or state. */
  abstract findById(deviceId: string): Promise<Device | null>;

  /** The fingerprint digest of the device of that id (its offline license's `device` claim), null when there is none. */
  abstract fingerprintDigestOf(deviceId: string): Promise<string | null>;

  /**
   * The devices of these licenses that hold a seat (active, seen since `heldSince`), each as its license and its
   * fingerprint digest: the devices whose licenses are signed ahead. One read for any number of licenses.
   */
  abstract seatsHeld(licenseIds: readonly string[], heldSince: Date | null): Promise<HeldSeat[]>;

  /** How many devices of every license are not deactivated (a lapsed lease counts until it is marked `lease_expired`). */
  abstract countNotDeactivated(): Promise<number>;

  /** The license's `max_devices` override, null when it has none (its tier's applies). */
  abstract maxDevicesOverrideOf(licenseId: string): Promise<MaxDevicesOverride>;

  /** Sets the license's override, or removes it (`null`: back to the tier's). */
  abstract setMaxDevicesOverride(licenseId: string, maxDevices: MaxDevicesOverride): Promise<void>;
}
