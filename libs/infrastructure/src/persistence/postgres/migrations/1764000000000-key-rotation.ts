import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Key rotation (CONTRACT 16): each key belongs to a license (`license_id`,
 * the first key's id; every existing key starts as its own license), with
 * the keys it was rotated from and to; usage is counted per license, so the
 * counters' `key_id` becomes `license_id`. The '' default matches SQLite's
 * (which cannot add a NOT NULL column without one); the service always sets it.
 */
export class KeyRotationPostgres1764000000000 implements MigrationInterface {
  name = 'KeyRotationPostgres1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys
      ADD COLUMN license_id varchar(40) NOT NULL DEFAULT '',
      ADD COLUMN rotated_from varchar(40),
      ADD COLUMN rotated_to varchar(40)`);
    await q.query(`UPDATE api_keys SET license_id = id`);
    await q.query(`CREATE INDEX ix_api_keys_license ON api_keys (license_id)`);
    await q.query(`CREATE UNIQUE INDEX ux_api_keys_rotated_from ON api_keys (rotated_from)`);
    await q.query(`ALTER TABLE usage_counters RENAME COLUMN key_id TO license_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE usage_counters RENAME COLUMN license_id TO key_id`);
    await q.query(`DROP INDEX ux_api_keys_rotated_from`);
    await q.query(`DROP INDEX ix_api_keys_license`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN rotated_to, DROP COLUMN rotated_from, DROP COLUMN license_id`);
  }
}
