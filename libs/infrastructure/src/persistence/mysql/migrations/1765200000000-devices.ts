import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/**
 * Devices (CONTRACT 23): a license's activations, each fingerprint kept only as its SHA-256
 * digest (hex). Seats are counted per license among the rows not deactivated (and, with a
 * lease, seen recently), so the license's rows are indexed by deactivation and fingerprint.
 */
export class DevicesMySql1765200000000 implements MigrationInterface {
  name = 'DevicesMySql1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE devices (
      id VARCHAR(40) NOT NULL,
      license_id VARCHAR(40) NOT NULL,
      fingerprint_digest VARCHAR(64) NOT NULL,
      name VARCHAR(200) NULL,
      platform VARCHAR(64) NULL,
      activated_at DATETIME(3) NOT NULL,
      last_seen_at DATETIME(3) NOT NULL,
      deactivated_at DATETIME(3) NULL,
      deactivation_reason VARCHAR(16) NULL,
      PRIMARY KEY (id),
      INDEX ix_devices_license_active (license_id, deactivated_at, fingerprint_digest)
    ) ${await tableOptions(q)}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE devices`);
  }
}
