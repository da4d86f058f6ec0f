import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/**
 * A license's `max_devices` override (CONTRACT 23): one row per license that an operator gave its own
 * number of seats, keyed by the license (its first key's id) so that every key a rotation chains sees it.
 * No row: the tier's `max_devices` applies.
 */
export class LicenseDeviceLimitsMySql1765600000000 implements MigrationInterface {
  name = 'LicenseDeviceLimitsMySql1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE license_device_limits (
      license_id VARCHAR(40) NOT NULL,
      max_devices INT NOT NULL,
      PRIMARY KEY (license_id),
      CONSTRAINT ck_license_device_limits_max CHECK (max_devices >= 0)
    ) ${await tableOptions(q)}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE license_device_limits`);
  }
}
