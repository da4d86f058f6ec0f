import { Injectable } from '@nestjs/common';
import {
  type ApiKey,
  Clock,
  type Device,
  DeviceLimitReachedError,
  DeviceNotFoundError,
  DeviceRepository,
  IdGenerator,
  TierCatalog,
  FingerprintDigest,
  type DeviceChangeRecords,
  type RecordsOfActivation,
  deviceActivatedEvent,
  deviceDeactivatedEvent,
  deviceLimitReachedEvent,
  leaseExpiresAt,
  seatHeldSince,
} from '@svc/domain';
import { joinedRecords, leaseExpiryRecords } from './device-records';

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
 * or answers the device already holding one; DEVICE_LIMIT_REACHED when every seat is held. Recorded
 * with the activation, in its transaction: `device.activated` for a new seat (not for the device
 * already holding one), the license's one `device.limit_reached` of the day for a refusal, and the
 * `lease_expired` records of a lapsed device of the same fingerprint it marks on the way.
 */
@Injectable()
export class ActivateDevice {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly digests: FingerprintDigest,
  ) {}

  async execute(input: ActivateDeviceInput): Promise<ActivatedDevice> {
    const policy = policyOf(this.catalog, input.key);
    const at = this.clock.now();
    const keyId = input.key.id;
    const recordsOf: RecordsOfActivation = (result, lapsed) => {
      const parts: DeviceChangeRecords[] = lapsed.map((device) => leaseExpiryRecords(this.ids, device, keyId, at));
      if (result.kind === 'activated') {
        parts.push({ audit: [], events: [deviceActivatedEvent(this.ids.newId('wev'), result.device, keyId, at)] });
      } else if (result.kind === 'limit_reached') {
        const refused = { licenseId: input.key.licenseId, keyId, maxDevices: result.maxDevices, active: result.active };
        parts.push({ audit: [], events: [deviceLimitReachedEvent(refused, at)] });
      }
      return joinedRecords(parts);
    };
    const outcome = await this.devices.activate(
      {
        id: this.ids.newId('dev'),
        licenseId: input.key.licenseId,
        fingerprintDigest: this.digests.of(input.fingerprint),
        name: input.name,
        platform: input.platform,
        at,
        maxDevices: policy.maxDevices,
        heldSince: seatHeldSince(policy, at),
      },
      recordsOf,
    );
    if (outcome.kind === 'limit_reached') throw new DeviceLimitReachedError(outcome.maxDevices, outcome.active);
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

/**
 * POST /v1/devices/deactivate: frees the seat of the license's active device of that fingerprint (reason
 * `sdk`), with its `device.deactivated` in the same transaction; else DEVICE_NOT_FOUND.
 */
@Injectable()
export class DeactivateDevice {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly digests: FingerprintDigest,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: NamedDeviceInput): Promise<Device> {
    const policy = policyOf(this.catalog, input.key);
    const at = this.clock.now();
    const device = await this.devices.findHolding(input.key.licenseId, this.digests.of(input.fingerprint), seatHeldSince(policy, at));
    if (!device) throw new DeviceNotFoundError();
    const records = { audit: [], events: [deviceDeactivatedEvent(this.ids.newId('wev'), device, input.key.id, 'sdk', at)] };
    if (!(await this.devices.deactivate(device.id, 'sdk', at, records))) throw new DeviceNotFoundError();
    return { ...device, deactivatedAt: at, deactivationReason: 'sdk' };
  }
}
