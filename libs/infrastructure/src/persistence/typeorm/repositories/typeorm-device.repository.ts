import {
  type Device,
  type DeviceActivation,
  type DeviceActivationOutcome,
  type DeviceChangeRecords,
  type DeviceDeactivationReason,
  type DeviceLease,
  type LapsedDevice,
  type LicenseType,
  type RecordsOfActivation,
  DeviceRepository,
  type MaxDevicesOverride,
  type HeldSeat,
  hasFreeSeat,
} from '@svc/domain';
import { type EntityManager, type Repository, type SelectQueryBuilder } from 'typeorm';
import { type AuditLines } from '../../../audit/logging-audit-log';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { ApiKeyRecord } from '../records/api-key.record';
import { DeviceRecord } from '../records/device.record';
import { type LicenseDeviceLimitRecord } from '../records/license-device-limit.record';
import { type SqlStatements } from '../sql-statements';

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
function holding(
  query: SelectQueryBuilder<DeviceRecord>,
  licenseIds: readonly string[],
  heldSince: Date | null,
): SelectQueryBuilder<DeviceRecord> {
  query.where('d.license_id IN (:...licenseIds)', { licenseIds }).andWhere('d.deactivated_at IS NULL');
  return heldSince === null ? query : query.andWhere('d.last_seen_at > :heldSince', { heldSince });
}

/**
 * Devices on every SQL database (CONTRACT 23), in plain TypeORM. An activation is one transaction that
 * first locks the license: its first key's row (`api_keys.id = license_id`, which every key of the
 * license names), by a write that changes nothing (a row lock on PostgreSQL and MySQL, the database's
 * one write lock on SQLite), before anything is read. Seats are then
 * counted and the device inserted under that lock, so concurrent activations of one license on any
 * number of instances are serialised and exactly as many succeed as there were free seats.
 * Each change writes its records (audit entries, webhook events) in its own transaction; once it has
 * committed, the entries are logged and the outbox's bell rung.
 */
export class TypeOrmDeviceRepository extends DeviceRepository {
  private readonly outbox: OutboxWrites;

  constructor(
    private readonly records: Repository<DeviceRecord>,
    private readonly limits: Repository<LicenseDeviceLimitRecord>,
    private readonly statements: SqlStatements,
    private readonly lines: AuditLines,
    private readonly bell: OutboxBell,
  ) {
    super();
    this.outbox = new OutboxWrites(records.manager.connection);
  }

  /**
   * `work` in one transaction (SqlStatements.transaction); its records logged and rung once it has
   * committed (those of the attempt that committed, when the database ran it again). Other instances
   * wait on the license's lock.
   */
  private async change<T>(work: (manager: EntityManager, written: DeviceChangeRecords[]) => Promise<T>): Promise<T> {
    const { result, written } = await this.statements.transaction(async (manager) => {
      const written: DeviceChangeRecords[] = [];
      return { result: await work(manager, written), written };
    });
    for (const entry of written.flatMap((r) => r.audit)) this.lines.stored(entry);
    if (written.some((r) => r.events.length > 0)) this.bell.ring();
    return result;
  }

  /** The one place a device change's records are written, in its transaction: audit entries, then events (a duplicate id ignored). */
  private async writeRecords(manager: EntityManager, records: DeviceChangeRecords, written: DeviceChangeRecords[]): Promise<void> {
    await this.outbox.audit(manager, records.audit);
    for (const event of records.events) await this.outbox.eventOnce(manager, event);
    written.push(records);
  }

  activate(activation: DeviceActivation, recordsOf: RecordsOfActivation): Promise<DeviceActivationOutcome> {
    return this.change(async (manager, written) => {
      const { outcome, lapsed } = await this.activateLocked(manager, activation);
      await this.writeRecords(manager, recordsOf(outcome, lapsed), written);
      return outcome;
    });
  }

  private async activateLocked(
    manager: EntityManager,
    activation: DeviceActivation,
  ): Promise<{ outcome: DeviceActivationOutcome; lapsed: Device[] }> {
    await this.lockLicense(manager, activation.licenseId);
    const records = manager.getRepository(DeviceRecord);
    const same = await records
      .createQueryBuilder('d')
      .where('d.license_id = :licenseId', { licenseId: activation.licenseId })
      .andWhere('d.fingerprint_digest = :digest', { digest: activation.fingerprintDigest })
      .andWhere('d.deactivated_at IS NULL')
      .getMany();
    const lapsed: Device[] = [];
    for (const record of same) {
      const expired = activation.heldSince !== null && new Date(record.lastSeenAt).getTime() <= activation.heldSince.getTime();
      if (!expired) {
        await records.update({ id: record.id }, { lastSeenAt: activation.at });
        return { outcome: { kind: 'already_active', device: deviceOf(Object.assign(record, { lastSeenAt: activation.at })) }, lapsed };
      }
      await records.update({ id: record.id }, { deactivatedAt: activation.at, deactivationReason: 'lease_expired' });
      lapsed.push(deviceOf(Object.assign(record, { deactivatedAt: activation.at, deactivationReason: 'lease_expired' })));
    }
    const active = await holding(records.createQueryBuilder('d'), [activation.licenseId], activation.heldSince).getCount();
    if (!hasFreeSeat(activation.maxDevices, active)) {
      return { outcome: { kind: 'limit_reached', maxDevices: activation.maxDevices!, active }, lapsed };
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
    return { outcome: { kind: 'activated', device: deviceOf(record) }, lapsed };
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
    const record = await holding(this.records.createQueryBuilder('d'), [licenseId], heldSince)
      .andWhere('d.fingerprint_digest = :fingerprintDigest', { fingerprintDigest })
      .orderBy('d.activated_at', 'DESC')
      .getOne();
    return record ? deviceOf(record) : null;
  }

  async touch(deviceId: string, at: Date, before: Date): Promise<boolean> {
    const result = await this.statements.inTurn(() =>
      this.records
        .createQueryBuilder()
        .update()
        .set({ lastSeenAt: at })
        .where('id = :deviceId', { deviceId })
        .andWhere('deactivated_at IS NULL')
        .andWhere('last_seen_at < :before', { before })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  deactivate(deviceId: string, reason: DeviceDeactivationReason, at: Date, records: DeviceChangeRecords): Promise<boolean> {
    return this.release(deviceId, reason, at, null, records);
  }

  async lapsed(leases: readonly DeviceLease[], limit: number): Promise<LapsedDevice[]> {
    if (leases.length === 0) return [];
    const query = this.records
      .createQueryBuilder('d')
      .innerJoin(ApiKeyRecord, 'k', 'k.license_id = d.license_id AND k.rotated_to IS NULL')
      .addSelect(['k.id', 'k.licenseType'])
      .where('d.deactivated_at IS NULL');
    // one condition per tier with a lease: its devices last seen at or before its cut-off
    const byTier = leases.map((lease, i) => `(k.license_type = :tier${i} AND d.last_seen_at <= :heldSince${i})`).join(' OR ');
    const params: Record<string, unknown> = {};
    leases.forEach((lease, i) => Object.assign(params, { [`tier${i}`]: lease.licenseType, [`heldSince${i}`]: lease.heldSince }));
    const { entities, raw } = await query
      .andWhere(`(${byTier})`, params)
      .orderBy('d.last_seen_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(limit)
      .getRawAndEntities<{ d_id: string; k_id: string; k_license_type: string }>();
    const keys = new Map(raw.map((row) => [row.d_id, row]));
    return entities.map((record) => {
      const key = keys.get(record.id)!;
      return { device: deviceOf(record), keyId: key.k_id, licenseType: key.k_license_type as LicenseType };
    });
  }

  releaseLapsed(deviceId: string, heldSince: Date, at: Date, records: DeviceChangeRecords): Promise<boolean> {
    return this.release(deviceId, 'lease_expired', at, heldSince, records);
  }

  /**
   * A deactivation in one transaction: the mark (only a device still active, and still lapsed at
   * `lapsedBy` when given), then, if it marked, the records.
   */
  private release(
    deviceId: string,
    reason: DeviceDeactivationReason,
    at: Date,
    lapsedBy: Date | null,
    records: DeviceChangeRecords,
  ): Promise<boolean> {
    return this.change(async (manager, written) => {
      const mark = manager
        .createQueryBuilder()
        .update(DeviceRecord)
        .set({ deactivatedAt: at, deactivationReason: reason })
        .where('id = :deviceId AND deactivated_at IS NULL', { deviceId });
      if (lapsedBy !== null) mark.andWhere('last_seen_at <= :lapsedBy', { lapsedBy });
      if ((await mark.execute()).affected !== 1) return false;
      await this.writeRecords(manager, records, written);
      return true;
    });
  }

  async listByLicense(licenseId: string): Promise<Device[]> {
    return (await this.records.find({ where: { licenseId } })).map(deviceOf);
  }

  async findById(deviceId: string): Promise<Device | null> {
    const record = await this.records.findOne({ where: { id: deviceId } });
    return record ? deviceOf(record) : null;
  }

  async fingerprintDigestOf(deviceId: string): Promise<string | null> {
    const record = await this.records.findOne({ where: { id: deviceId }, select: { id: true, fingerprintDigest: true } });
    return record?.fingerprintDigest ?? null;
  }

  async seatsHeld(licenseIds: readonly string[], heldSince: Date | null): Promise<HeldSeat[]> {
    if (licenseIds.length === 0) return [];
    const rows: Array<{ licenseId: string; digest: string }> = await holding(this.records.createQueryBuilder('d'), licenseIds, heldSince)
      .select('d.license_id', 'licenseId')
      .addSelect('d.fingerprint_digest', 'digest')
      .getRawMany();
    return rows.map(({ licenseId, digest }) => ({ licenseId, digest }));
  }

  countNotDeactivated(): Promise<number> {
    return this.records.createQueryBuilder('d').where('d.deactivated_at IS NULL').getCount();
  }

  async maxDevicesOverrideOf(licenseId: string): Promise<MaxDevicesOverride> {
    const record = await this.limits.findOne({ where: { licenseId } });
    return record ? Number(record.maxDevices) : null;
  }

  async setMaxDevicesOverride(licenseId: string, maxDevices: MaxDevicesOverride): Promise<void> {
    await this.statements.inTurn(async () => {
      if (maxDevices === null) await this.limits.delete({ licenseId });
      else await this.limits.upsert({ licenseId, maxDevices }, ['licenseId']);
    });
  }
}
