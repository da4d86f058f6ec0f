import { Injectable } from '@nestjs/common';
import { Clock, type DeviceLease, DeviceRepository, IdGenerator, LICENSE_TYPES, TierCatalog, seatHeldSince } from '@svc/domain';
import { OfflineLicenses } from '../shared/license-snapshot';
import { leaseExpiryRecords } from './device-records';

/** What one round of the lease job did. */
export interface LeaseReleaseRound {
  /** Devices this round marked `lease_expired`. */
  readonly released: number;
  /** Devices another instance released first, or seen again meanwhile. */
  readonly skipped: number;
}

/**
 * The lease job's round (CONTRACT 23): devices still marked active whose lease lapsed (their license's
 * current key's tier has `device_lease_seconds`, and they were last seen that long ago or longer) are
 * marked `lease_expired`, each with an audit entry by `system` and a `device.deactivated` in the same
 * transaction. Seats already free themselves when they are counted; this is for the record and the
 * webhook. Each device is claimed by its conditional mark (still active, still lapsed), so of instances
 * running the job together exactly one releases it, and a device seen meanwhile is left alone. A released
 * device's stored offline licenses are forgotten, as DeactivateDevice forgets them.
 */
@Injectable()
export class ReleaseLapsedDevices {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly licenses: OfflineLicenses,
  ) {}

  /** Up to `limit` lapsed devices released. */
  async execute(limit: number): Promise<LeaseReleaseRound> {
    const now = this.clock.now();
    const leases: DeviceLease[] = LICENSE_TYPES.flatMap((licenseType) => {
      const heldSince = seatHeldSince(this.catalog.devicePolicyOf(licenseType), now);
      return heldSince === null ? [] : [{ licenseType, heldSince }];
    });
    const round = { released: 0, skipped: 0 };
    if (leases.length === 0) return round;
    for (const { device, keyId, licenseType } of await this.devices.lapsed(leases, limit)) {
      const heldSince = leases.find((lease) => lease.licenseType === licenseType)!.heldSince;
      const records = leaseExpiryRecords(this.ids, device, keyId, now);
      const released = await this.devices.releaseLapsed(device.id, heldSince, now, records);
      if (released) await this.licenses.forgetDevice(device);
      round[released ? 'released' : 'skipped'] += 1;
    }
    return round;
  }
}
