import { Injectable } from '@nestjs/common';
import {
  type Actor,
  type ApiKey,
  ApiKeyRepository,
  Clock,
  type Device,
  type DeviceDeactivationReason,
  DeviceLimitReachedError,
  DeviceNotFoundError,
  DeviceRepository,
  type DeviceStatus,
  IdGenerator,
  KeyNotFoundError,
  TierCatalog,
  FingerprintDigest,
  deviceStatusOf,
  keyActor,
  type DeviceChangeRecords,
  type RecordsOfActivation,
  deviceActivatedEvent,
  deviceDeactivatedEvent,
  deviceLimitReachedEvent,
  leaseExpiresAt,
  maxDevicesOf,
  seatHeldSince,
} from '@svc/domain';
import { OfflineLicenses } from '../shared/license-snapshot';
import { deviceAuditEntry, joinedRecords, leaseExpiryRecords } from './device-records';

/** A device as the SDK sees it: the device, and when its lease ends if it is not seen again (null: no lease). */
export interface DeviceSeat {
  readonly device: Device;
  readonly leaseExpiresAt: Date | null;
}

export interface ActivateDeviceInput {
  readonly key: ApiKey;
  readonly fingerprint: string;
  readonly name: string | null;
  readonly platform: string | null;
}

export interface ActivatedDevice extends DeviceSeat {
  /** False when the fingerprint was already active on the license (answered 200, not 201). */
  readonly created: boolean;
}

/** The device policy of the key's tier (CONTRACT 23). */
function policyOf(catalog: TierCatalog, key: ApiKey) {
  return catalog.devicePolicyOf(key.licenseType);
}

/**
 * POST /v1/devices/activate (CONTRACT 23): takes a seat of the key's license for the fingerprint,
 * or answers the device already holding one; DEVICE_LIMIT_REACHED when every seat is held. The seats
 * are the license's override when an operator set one, else its tier's (maxDevicesOf). Recorded with
 * the activation, in its transaction: for a new seat (not for the device already holding one) the audit
 * entry `device.activated` (the key as actor) and its webhook, the license's one `device.limit_reached`
 * of the day for a refusal, and the `lease_expired` records of a lapsed device of the same fingerprint
 * it marks on the way. The device's offline license (the `device` claim) is then signed ahead for the
 * key, new seat or not, so that its named validate hands it out without signing (OfflineLicenses).
 */
@Injectable()
export class ActivateDevice {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly digests: FingerprintDigest,
    private readonly licenses: OfflineLicenses,
  ) {}

  async execute(input: ActivateDeviceInput): Promise<ActivatedDevice> {
    const policy = policyOf(this.catalog, input.key);
    const override = await this.devices.maxDevicesOverrideOf(input.key.licenseId);
    const at = this.clock.now();
    const keyId = input.key.id;
    const recordsOf: RecordsOfActivation = (result, lapsed) => {
      const parts: DeviceChangeRecords[] = lapsed.map((device) => leaseExpiryRecords(this.ids, device, keyId, at));
      if (result.kind === 'activated') {
        parts.push({
          audit: [deviceAuditEntry(this.ids, 'device.activated', result.device, keyId, keyActor(keyId), at)],
          events: [deviceActivatedEvent(this.ids.newId('wev'), result.device, keyId, at)],
        });
      } else if (result.kind === 'limit_reached') {
        const refused = { licenseId: input.key.licenseId, keyId, maxDevices: result.maxDevices, active: result.active };
        parts.push({ audit: [], events: [deviceLimitReachedEvent(refused, at)] });
      }
      return joinedRecords(parts);
    };
    const fingerprintDigest = this.digests.of(input.fingerprint);
    const outcome = await this.devices.activate(
      {
        id: this.ids.newId('dev'),
        licenseId: input.key.licenseId,
        fingerprintDigest,
        name: input.name,
        platform: input.platform,
        at,
        maxDevices: maxDevicesOf(policy, override),
        heldSince: seatHeldSince(policy, at),
      },
      recordsOf,
    );
    if (outcome.kind === 'limit_reached') throw new DeviceLimitReachedError(outcome.maxDevices, outcome.active);
    await this.licenses.signAheadForDevice(input.key, fingerprintDigest, at);
    return { device: outcome.device, leaseExpiresAt: leaseExpiresAt(outcome.device, policy), created: outcome.kind === 'activated' };
  }
}

export interface NamedDeviceInput {
  readonly key: ApiKey;
  readonly fingerprint: string;
}

/** POST /v1/devices/heartbeat: the license's active device of that fingerprint, seen now (its lease renewed); else DEVICE_NOT_FOUND. */
@Injectable()
export class HeartbeatDevice {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly digests: FingerprintDigest,
  ) {}

  async execute(input: NamedDeviceInput): Promise<DeviceSeat> {
    const policy = policyOf(this.catalog, input.key);
    const at = this.clock.now();
    const device = await this.devices.findHolding(input.key.licenseId, this.digests.of(input.fingerprint), seatHeldSince(policy, at));
    if (!device) throw new DeviceNotFoundError();
    await this.devices.touch(device.id, at, at);
    const seen = { ...device, lastSeenAt: new Date(Math.max(at.getTime(), device.lastSeenAt.getTime())) };
    return { device: seen, leaseExpiresAt: leaseExpiresAt(seen, policy) };
  }
}

/** Which device a deactivation names: the SDK names it by its fingerprint, an operator by its id. */
export type DeviceTarget = { readonly fingerprint: string } | { readonly deviceId: string };

export interface DeactivateDeviceInput {
  /** A key of the device's license: the SDK's own, or the one an operator named. */
  readonly key: ApiKey;
  readonly device: DeviceTarget;
  /** `sdk` (POST /v1/devices/deactivate), `operator` (the admin route and the CLI), `lease_expired` (the lease job). */
  readonly reason: DeviceDeactivationReason;
  /** Who deactivates it (the audit entry's actor): the key, an operator, the CLI, or the service. */
  readonly actor: Actor;
}

export interface DeactivatedDevice {
  /** The device as it now stands, deactivated. */
  readonly device: Device;
  /** False when the device named by id was deactivated already: it is answered as it was, nothing written. */
  readonly deactivatedNow: boolean;
}

/**
 * The one deactivation of a device (CONTRACT 23), whoever asks: the SDK (by fingerprint: its active
 * device, else DEVICE_NOT_FOUND), an operator or the CLI (by id: any device of the key's license, else
 * DEVICE_NOT_FOUND; one deactivated already is answered as it stands, idempotently), or the lease job.
 * Marks it with the reason and records, in the same transaction, the audit entry `device.deactivated`
 * with the actor and the webhook `device.deactivated` with the reason, so that every caller gets both.
 * The device's stored offline licenses (every key of its license) are then forgotten (OfflineLicenses).
 */
@Injectable()
export class DeactivateDevice {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly digests: FingerprintDigest,
    private readonly ids: IdGenerator,
    private readonly licenses: OfflineLicenses,
  ) {}

  async execute(input: DeactivateDeviceInput): Promise<DeactivatedDevice> {
    const at = this.clock.now();
    const device = await this.find(input, at);
    if (device.deactivatedAt !== null) return { device, deactivatedNow: false };
    const records: DeviceChangeRecords = {
      audit: [deviceAuditEntry(this.ids, 'device.deactivated', device, input.key.id, input.actor, at, input.reason)],
      events: [deviceDeactivatedEvent(this.ids.newId('wev'), device, input.key.id, input.reason, at)],
    };
    if (!(await this.devices.deactivate(device.id, input.reason, at, records))) {
      // deactivated meanwhile by another caller: by fingerprint it is no longer active; by id it is answered as it stands
      const now = 'fingerprint' in input.device ? null : await this.devices.findById(device.id);
      if (!now || now.deactivatedAt === null) throw new DeviceNotFoundError();
      return { device: now, deactivatedNow: false };
    }
    await this.licenses.forgetDevice(device);
    return { device: { ...device, deactivatedAt: at, deactivationReason: input.reason }, deactivatedNow: true };
  }

  /** The device the input names on the key's license, else DEVICE_NOT_FOUND. */
  private async find(input: DeactivateDeviceInput, at: Date): Promise<Device> {
    if ('fingerprint' in input.device) {
      const policy = policyOf(this.catalog, input.key);
      const digest = this.digests.of(input.device.fingerprint);
      const holding = await this.devices.findHolding(input.key.licenseId, digest, seatHeldSince(policy, at));
      if (!holding) throw new DeviceNotFoundError();
      return holding;
    }
    const device = await this.devices.findById(input.device.deviceId);
    if (!device || device.licenseId !== input.key.licenseId) throw new DeviceNotFoundError();
    return device;
  }
}

/** A device as operators see it: its state and when its lease ends (null: no lease, or not active). */
export interface LicenseDevice extends DeviceSeat {
  readonly status: DeviceStatus;
}

export interface LicenseDevices {
  readonly key: ApiKey;
  /** Active first, then lapsed, then deactivated; each group newest activation first. */
  readonly devices: readonly LicenseDevice[];
}

const STATUS_ORDER: Readonly<Record<DeviceStatus, number>> = { active: 0, lapsed: 1, deactivated: 2 };

/** GET /admin/v1/keys/{key_id}/devices (CONTRACT 23): every device of the key's license, whichever of its keys activated it. */
@Injectable()
export class ListLicenseDevices {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  /** The key of that id (else KEY_NOT_FOUND), for the routes that act on its license's devices. */
  async keyOf(keyId: string): Promise<ApiKey> {
    const key = await this.keys.findById(keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    return key;
  }

  /**
   * The first key of the license of the device of that id (else DEVICE_NOT_FOUND): the CLI names a device by
   * its id alone, and its deactivation acts on (and is audited under) a key of the device's license.
   */
  async keyOfDevice(deviceId: string): Promise<ApiKey> {
    const device = await this.devices.findById(deviceId);
    const key = device && (await this.keys.findById(device.licenseId));
    if (!key) throw new DeviceNotFoundError();
    return key;
  }

  async execute(keyId: string): Promise<LicenseDevices> {
    const key = await this.keyOf(keyId);
    const policy = policyOf(this.catalog, key);
    const now = this.clock.now();
    const devices = (await this.devices.listByLicense(key.licenseId)).map((device): LicenseDevice => {
      const status = deviceStatusOf(device, policy, now);
      return { device, status, leaseExpiresAt: status === 'active' ? leaseExpiresAt(device, policy) : null };
    });
    devices.sort(
      (a, b) =>
        STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
        b.device.activatedAt.getTime() - a.device.activatedAt.getTime() ||
        (a.device.id < b.device.id ? -1 : 1),
    );
    return { key, devices };
  }
}
