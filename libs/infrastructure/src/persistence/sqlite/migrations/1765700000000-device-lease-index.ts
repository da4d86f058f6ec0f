import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { DEVICE_LEASE_INDEXES } from '../../typeorm/device-lease-migration';

/** Active devices by last sighting, for the lease job (DEVICE_LEASE_INDEXES, one list for the three databases). */
export class DeviceLeaseIndexSqlite1765700000000 implements MigrationInterface {
  name = 'DeviceLeaseIndexSqlite1765700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, table, columns] of DEVICE_LEASE_INDEXES) await q.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...DEVICE_LEASE_INDEXES].reverse()) await q.query(`DROP INDEX ${name}`);
  }
}
