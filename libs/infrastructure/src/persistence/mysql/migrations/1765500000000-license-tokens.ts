import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/**
 * Licenses signed ahead (issue 40): each key's signed offline license, kept so that validate
 * hands it out without signing and every instance hands out the same token. One row per key and device named (`device` '' for none);
 * the refresh job finds its work by `refresh_at`, and the licenses of another signing key by `kid`. Keys issued before this migration have no
 * row: the job signs theirs, and validate signs on the spot until it has.
 */
export class LicenseTokensMySql1765500000000 implements MigrationInterface {
  name = 'LicenseTokensMySql1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE license_tokens (
      key_id VARCHAR(40) NOT NULL,
      device VARCHAR(64) NOT NULL,
      token TEXT NOT NULL,
      kid VARCHAR(64) NOT NULL,
      terms TEXT NOT NULL,
      signed_at DATETIME(3) NOT NULL,
      refresh_at DATETIME(3) NOT NULL,
      PRIMARY KEY (key_id, device),
      INDEX ix_license_tokens_refresh (refresh_at),
      INDEX ix_license_tokens_kid (kid)
    ) ${await tableOptions(q)}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE license_tokens`);
  }
}
