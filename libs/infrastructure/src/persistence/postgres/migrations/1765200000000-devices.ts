import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Devices (CONTRACT 23): a license's activations, each fingerprint kept only as its SHA-256
 * digest (hex). Seats are counted per license among the rows not deactivated (and, with a
 * lease, seen recently), so the license's rows are indexed by deactivation and fingerprint.
 */
export class DevicesPostgres1765200000000 implements MigrationInterface {
  name = 'DevicesPostgres1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE devices (
      id varchar(40) PRIMARY KEY,
      license_id varchar(40) NOT NULL,
      fingerprint_digest varchar(64) NOT NULL,
      name varchar(200),
      platform varchar(64),
      activated_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      deactivated_at timestamptz,
      deactivation_reason varchar(16))`);
    await q.query(`CREATE INDEX ix_devices_license_active ON devices (license_id, deactivated_at, fingerprint_digest)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_devices_license_active`);
    await q.query(`DROP TABLE devices`);
  }
}
