import {
  type ApiKeyRepository,
  type Device,
  type DeviceActivation,
  type DeviceActivationOutcome,
  type DeviceChangeRecords,
  type DeviceDeactivationReason,
  type DeviceLease,
  type HeldSeat,
  type LapsedDevice,
  type RecordsOfActivation,
  type WebhookEvent,
  DeviceRepository,
  type MaxDevicesOverride,
  hasFreeSeat,
} from '@svc/domain';
import { type InMemoryAuditLog } from './in-memory-audit-log';

interface Row {
  device: Device;
  readonly digest: string;
}

/**
 * Devices in memory, for unit tests: each call runs to its end before another, so activation is exact here by
 * construction. A change's audit entries go to `audit`; its webhook events are kept in `events` (once per id),
 * as there is no outbox in memory. The keys answer which tier and current key a license has.
 */
export class InMemoryDeviceRepository extends DeviceRepository {
  private readonly rows: Row[] = [];
  private readonly overrides = new Map<string, number>();
  readonly events: WebhookEvent[] = [];

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly audit: InMemoryAuditLog,
  ) {
    super();
  }

  private write(records: DeviceChangeRecords): void {
    this.audit.appendNow(records.audit);
    for (const event of records.events) if (!this.events.some((e) => e.id === event.id)) this.events.push(event);
  }

  private holds(row: Row, licenseId: string, heldSince: Date | null): boolean {
    return (
      row.device.licenseId === licenseId &&
      row.device.deactivatedAt === null &&
      (heldSince === null || row.device.lastSeenAt.getTime() > heldSince.getTime())
    );
  }

  async activate(activation: DeviceActivation, recordsOf: RecordsOfActivation): Promise<DeviceActivationOutcome> {
    const lapsed: Device[] = [];
    const outcome = this.activateNow(activation, lapsed);
    this.write(recordsOf(outcome, lapsed));
    return outcome;
  }

  private activateNow(activation: DeviceActivation, lapsed: Device[]): DeviceActivationOutcome {
    for (const row of this.rows) {
      if (row.device.licenseId !== activation.licenseId || row.digest !== activation.fingerprintDigest || row.device.deactivatedAt)
        continue;
      if (this.holds(row, activation.licenseId, activation.heldSince)) {
        row.device = { ...row.device, lastSeenAt: activation.at };
        return { kind: 'already_active', device: row.device };
      }
      row.device = { ...row.device, deactivatedAt: activation.at, deactivationReason: 'lease_expired' };
      lapsed.push(row.device);
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

  async fingerprintDigestOf(deviceId: string): Promise<string | null> {
    return this.rows.find((row) => row.device.id === deviceId)?.digest ?? null;
  }

  async seatsHeld(licenseIds: readonly string[], heldSince: Date | null): Promise<HeldSeat[]> {
    return this.rows
      .filter((row) => licenseIds.some((licenseId) => this.holds(row, licenseId, heldSince)))
      .map((row) => ({ licenseId: row.device.licenseId, digest: row.digest }));
  }

  async findHolding(licenseId: string, fingerprintDigest: string, heldSince: Date | null): Promise<Device | null> {
    return this.rows.find((row) => row.digest === fingerprintDigest && this.holds(row, licenseId, heldSince))?.device ?? null;
  }

  async touch(deviceId: string, at: Date, before: Date): Promise<boolean> {
    const row = this.rows.find((r) => r.device.id === deviceId && r.device.deactivatedAt === null && r.device.lastSeenAt < before);
    if (row) row.device = { ...row.device, lastSeenAt: at };
    return row !== undefined;
  }

  async deactivate(deviceId: string, reason: DeviceDeactivationReason, at: Date, records: DeviceChangeRecords): Promise<boolean> {
    const row = this.rows.find((r) => r.device.id === deviceId && r.device.deactivatedAt === null);
    if (!row) return false;
    row.device = { ...row.device, deactivatedAt: at, deactivationReason: reason };
    this.write(records);
    return true;
  }

  async lapsed(leases: readonly DeviceLease[], limit: number): Promise<LapsedDevice[]> {
    const found: LapsedDevice[] = [];
    for (const { device } of this.rows) {
      if (device.deactivatedAt !== null) continue;
      const current = (await this.keys.findByLicense(device.licenseId)).find((key) => key.rotatedTo === null);
      const lease = current && leases.find((l) => l.licenseType === current.licenseType);
      if (current && lease && device.lastSeenAt.getTime() <= lease.heldSince.getTime()) {
        found.push({ device, keyId: current.id, licenseType: current.licenseType });
      }
    }
    return found.sort((a, b) => a.device.lastSeenAt.getTime() - b.device.lastSeenAt.getTime()).slice(0, limit);
  }

  async releaseLapsed(deviceId: string, heldSince: Date, at: Date, records: DeviceChangeRecords): Promise<boolean> {
    const row = this.rows.find((r) => r.device.id === deviceId && r.device.deactivatedAt === null);
    if (!row || row.device.lastSeenAt.getTime() > heldSince.getTime()) return false;
    row.device = { ...row.device, deactivatedAt: at, deactivationReason: 'lease_expired' };
    this.write(records);
    return true;
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
