import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Licenses signed ahead (issue 40): each key's signed offline license, kept so that validate
 * hands it out without signing and every instance hands out the same token. One row per key and device named (`device` '' for none);
 * the refresh job finds its work by `refresh_at`, and the licenses of another signing key by `kid`. Keys issued before this migration have no
 * row: the job signs theirs, and validate signs on the spot until it has.
 */
export class LicenseTokensSqlite1765500000000 implements MigrationInterface {
  name = 'LicenseTokensSqlite1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE license_tokens (
      key_id varchar(40) NOT NULL,
      device varchar(64) NOT NULL,
      token text NOT NULL,
      kid varchar(64) NOT NULL,
      terms text NOT NULL,
      signed_at datetime NOT NULL,
      refresh_at datetime NOT NULL,
      PRIMARY KEY (key_id, device))`);
    await q.query(`CREATE INDEX ix_license_tokens_refresh ON license_tokens (refresh_at)`);
    await q.query(`CREATE INDEX ix_license_tokens_kid ON license_tokens (kid)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_license_tokens_kid`);
    await q.query(`DROP INDEX ix_license_tokens_refresh`);
    await q.query(`DROP TABLE license_tokens`);
  }
}
