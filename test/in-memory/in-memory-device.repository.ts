import {
  type Device,
  type DeviceActivation,
  type DeviceActivationOutcome,
  type DeviceDeactivationReason,
  DeviceRepository,
  type MaxDevicesOverride,
  hasFreeSeat,
} from '@svc/domain';

interface Row {
  device: Device;
  readonly digest: string;
}

/** Devices in memory, for unit tests: each call runs to its end before another, so activation is exact here by construction. */
export class InMemoryDeviceRepository extends DeviceRepository {
  private readonly rows: Row[] = [];
  private readonly overrides = new Map<string, number>();

  private holds(row: Row, licenseId: string, heldSince: Date | null): boolean {
    return (
      row.device.licenseId === licenseId &&
      row.device.deactivatedAt === null &&
      (heldSince === null || row.device.lastSeenAt.getTime() > heldSince.getTime())
    );
  }

  async activate(activation: DeviceActivation): Promise<DeviceActivationOutcome> {
    for (const row of this.rows) {
      if (row.device.licenseId !== activation.licenseId || row.digest !== activation.fingerprintDigest || row.device.deactivatedAt)
        continue;
      if (this.holds(row, activation.licenseId, activation.heldSince)) {
        row.device = { ...row.device, lastSeenAt: activation.at };
        return { kind: 'already_active', device: row.device };
      }
      row.device = { ...row.device, deactivatedAt: activation.at, deactivationReason: 'lease_expired' };
    }
    const active = this.rows.filter((row) => this.holds(row, activation.licenseId, activation.heldSince)).length;
    if (!hasFreeSeat(activation.maxDevices, active)) return { kind: 'limit_reached', maxDevices: activation.maxDevices!, active };
    const device: Device = {
      id: activation.id,
      licenseId: activation.licenseId,
      name: activation.name,
      platform: activation.platform,
      activatedAt: activation.at,
      lastSeenAt: activation.at,
      deactivatedAt: null,
      deactivationReason: null,
    };
    this.rows.push({ device, digest: activation.fingerprintDigest });
    return { kind: 'activated', device };
  }

  async findHolding(licenseId: string, fingerprintDigest: string, heldSince: Date | null): Promise<Device | null> {
    return this.rows.find((row) => row.digest === fingerprintDigest && this.holds(row, licenseId, heldSince))?.device ?? null;
  }

  async touch(deviceId: string, at: Date, before: Date): Promise<boolean> {
    const row = this.rows.find((r) => r.device.id === deviceId && r.device.deactivatedAt === null && r.device.lastSeenAt < before);
    if (row) row.device = { ...row.device, lastSeenAt: at };
    return row !== undefined;
  }

  async deactivate(deviceId: string, reason: DeviceDeactivationReason, at: Date): Promise<boolean> {
    const row = this.rows.find((r) => r.device.id === deviceId && r.device.deactivatedAt === null);
    if (row) row.device = { ...row.device, deactivatedAt: at, deactivationReason: reason };
    return row !== undefined;
  }

  async listByLicense(licenseId: string): Promise<Device[]> {
    return this.rows.filter((r) => r.device.licenseId === licenseId).map((r) => r.device);
  }

  async findById(deviceId: string): Promise<Device | null> {
    return this.rows.find((r) => r.device.id === deviceId)?.device ?? null;
  }

  async countNotDeactivated(): Promise<number> {
    return this.rows.filter((r) => r.device.deactivatedAt === null).length;
  }

  async maxDevicesOverrideOf(licenseId: string): Promise<MaxDevicesOverride> {
    return this.overrides.get(licenseId) ?? null;
  }

  async setMaxDevicesOverride(licenseId: string, maxDevices: MaxDevicesOverride): Promise<void> {
    if (maxDevices === null) this.overrides.delete(licenseId);
    else this.overrides.set(licenseId, maxDevices);
  }
}
