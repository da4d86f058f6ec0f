import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A license's `max_devices` override (CONTRACT 23): one row per license that an operator gave its own
 * number of seats, keyed by the license (its first key's id) so that every key a rotation chains sees it.
 * No row: the tier's `max_devices` applies.
 */
export class LicenseDeviceLimitsPostgres1765600000000 implements MigrationInterface {
  name = 'LicenseDeviceLimitsPostgres1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE license_device_limits (
      license_id varchar(40) PRIMARY KEY,
      max_devices integer NOT NULL CHECK (max_devices >= 0))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE license_device_limits`);
  }
}
