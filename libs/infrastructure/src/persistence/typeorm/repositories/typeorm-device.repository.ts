import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  type Device,
  type DeviceActivation,
  type DeviceActivationOutcome,
  type DeviceDeactivationReason,
  DeviceRepository,
  type MaxDevicesOverride,
  hasFreeSeat,
} from '@svc/domain';
import { type EntityManager, Repository, type SelectQueryBuilder } from 'typeorm';
import { ApiKeyRecord } from '../records/api-key.record';
import { DeviceRecord } from '../records/device.record';
import { LicenseDeviceLimitRecord } from '../records/license-device-limit.record';

/** A device record as the domain's device (the digest stays in the record). */
function deviceOf(record: DeviceRecord): Device {
  return {
    id: record.id,
    licenseId: record.licenseId,
    name: record.name,
    platform: record.platform,
    activatedAt: new Date(record.activatedAt),
    lastSeenAt: new Date(record.lastSeenAt),
    deactivatedAt: record.deactivatedAt === null ? null : new Date(record.deactivatedAt),
    deactivationReason: record.deactivationReason as DeviceDeactivationReason | null,
  };
}

/** The license's rows holding a seat: not deactivated and, with a lease, seen after `heldSince`. */
function holding(query: SelectQueryBuilder<DeviceRecord>, licenseId: string, heldSince: Date | null): SelectQueryBuilder<DeviceRecord> {
  query.where('d.license_id = :licenseId', { licenseId }).andWhere('d.deactivated_at IS NULL');
  return heldSince === null ? query : query.andWhere('d.last_seen_at > :heldSince', { heldSince });
}

/**
 * Devices on every SQL database (CONTRACT 23), in plain TypeORM. An activation is one transaction that
 * first locks the license: its first key's row (`api_keys.id = license_id`, which every key of the
 * license names), by a write that changes nothing (a row lock on PostgreSQL and MySQL, the database's
 * one write lock on SQLite), before anything is read. Seats are then
 * counted and the device inserted under that lock, so concurrent activations of one license on any
 * number of instances are serialised and exactly as many succeed as there were free seats.
 */
@Injectable()
export class TypeOrmDeviceRepository extends DeviceRepository {
  /**
   * One activation at a time in this instance: on SQLite TypeORM runs every transaction on its one
   * connection, where a second BEGIN while the first is open fails. Other instances wait on the lock.
   */
  private activations: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectRepository(DeviceRecord) private readonly records: Repository<DeviceRecord>,
    @InjectRepository(LicenseDeviceLimitRecord) private readonly limits: Repository<LicenseDeviceLimitRecord>,
  ) {
    super();
  }

  activate(activation: DeviceActivation): Promise<DeviceActivationOutcome> {
    const run = this.activations.then(() => this.records.manager.transaction((manager) => this.activateLocked(manager, activation)));
    this.activations = run.catch(() => undefined);
    return run;
  }

  private async activateLocked(manager: EntityManager, activation: DeviceActivation): Promise<DeviceActivationOutcome> {
    await this.lockLicense(manager, activation.licenseId);
    const records = manager.getRepository(DeviceRecord);
    const same = await records
      .createQueryBuilder('d')
      .where('d.license_id = :licenseId', { licenseId: activation.licenseId })
      .andWhere('d.fingerprint_digest = :digest', { digest: activation.fingerprintDigest })
      .andWhere('d.deactivated_at IS NULL')
      .getMany();
    for (const record of same) {
      const lapsed = activation.heldSince !== null && new Date(record.lastSeenAt).getTime() <= activation.heldSince.getTime();
      if (!lapsed) {
        await records.update({ id: record.id }, { lastSeenAt: activation.at });
        return { kind: 'already_active', device: deviceOf(Object.assign(record, { lastSeenAt: activation.at })) };
      }
      await records.update({ id: record.id }, { deactivatedAt: activation.at, deactivationReason: 'lease_expired' });
    }
    const active = await holding(records.createQueryBuilder('d'), activation.licenseId, activation.heldSince).getCount();
    if (!hasFreeSeat(activation.maxDevices, active)) {
      return { kind: 'limit_reached', maxDevices: activation.maxDevices!, active };
    }
    const record = records.create({
      id: activation.id,
      licenseId: activation.licenseId,
      fingerprintDigest: activation.fingerprintDigest,
      name: activation.name,
      platform: activation.platform,
      activatedAt: activation.at,
      lastSeenAt: activation.at,
      deactivatedAt: null,
      deactivationReason: null,
    });
    await records.insert(record);
    return { kind: 'activated', device: deviceOf(record) };
  }

  /** Locks the license's first key row for the rest of the transaction (see the class). */
  private async lockLicense(manager: EntityManager, licenseId: string): Promise<void> {
    // a write that changes nothing: a row lock until the end of the transaction on PostgreSQL and MySQL, the
    // database's one write lock on SQLite (where TypeORM has no pessimistic lock), taken before anything is read
    await manager
      .getRepository(ApiKeyRecord)
      .createQueryBuilder()
      .update()
      .set({ licenseId: () => 'license_id' })
      .where('id = :licenseId', { licenseId })
      .execute();
  }

  async findHolding(licenseId: string, fingerprintDigest: string, heldSince: Date | null): Promise<Device | null> {
    const record = await holding(this.records.createQueryBuilder('d'), licenseId, heldSince)
      .andWhere('d.fingerprint_digest = :fingerprintDigest', { fingerprintDigest })
      .orderBy('d.activated_at', 'DESC')
      .getOne();
    return record ? deviceOf(record) : null;
  }

  async touch(deviceId: string, at: Date, before: Date): Promise<boolean> {
    const result = await this.records
      .createQueryBuilder()
      .update()
      .set({ lastSeenAt: at })
      .where('id = :deviceId', { deviceId })
      .andWhere('deactivated_at IS NULL')
      .andWhere('last_seen_at < :before', { before })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async deactivate(deviceId: string, reason: DeviceDeactivationReason, at: Date): Promise<boolean> {
    const result = await this.records
      .createQueryBuilder()
      .update()
      .set({ deactivatedAt: at, deactivationReason: reason })
      .where('id = :deviceId', { deviceId })
      .andWhere('deactivated_at IS NULL')
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async listByLicense(licenseId: string): Promise<Device[]> {
    return (await this.records.find({ where: { licenseId } })).map(deviceOf);
  }

  async findById(deviceId: string): Promise<Device | null> {
    const record = await this.records.findOne({ where: { id: deviceId } });
    return record ? deviceOf(record) : null;
  }

  countNotDeactivated(): Promise<number> {
    return this.records.createQueryBuilder('d').where('d.deactivated_at IS NULL').getCount();
  }

  async maxDevicesOverrideOf(licenseId: string): Promise<MaxDevicesOverride> {
    const record = await this.limits.findOne({ where: { licenseId } });
    return record ? Number(record.maxDevices) : null;
  }

  async setMaxDevicesOverride(licenseId: string, maxDevices: MaxDevicesOverride): Promise<void> {
    if (maxDevices === null) await this.limits.delete({ licenseId });
    else await this.limits.upsert({ licenseId, maxDevices }, ['licenseId']);
  }
}
