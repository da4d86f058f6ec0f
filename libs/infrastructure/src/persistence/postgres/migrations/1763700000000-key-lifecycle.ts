import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Users, keys (unique digest), usage per key and period, audit log. Times are timestamptz. */
export class KeyLifecyclePostgres1763700000000 implements MigrationInterface {
  name = 'KeyLifecyclePostgres1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users (
      id varchar(40) PRIMARY KEY,
      email varchar(254) NOT NULL,
      name varchar(200),
      organization varchar(200),
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE api_keys (
      id varchar(40) PRIMARY KEY,
      user_id varchar(40) NOT NULL REFERENCES users(id),
      digest varchar(64) NOT NULL,
      display_prefix varchar(16) NOT NULL,
      environment varchar(8) NOT NULL CHECK (environment IN ('live', 'test')),
      license_type varchar(16) NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      monthly_limit_source varchar(8) NOT NULL CHECK (monthly_limit_source IN ('tier', 'override')),
      monthly_limit bigint CHECK (monthly_limit >= 0),
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE UNIQUE INDEX ux_api_keys_digest ON api_keys (digest)`);
    await q.query(`CREATE INDEX ix_api_keys_user ON api_keys (user_id)`);
    await q.query(`CREATE TABLE usage_counters (
      key_id varchar(40) NOT NULL REFERENCES api_keys(id),
      period varchar(7) NOT NULL,
      used bigint NOT NULL DEFAULT 0 CHECK (used >= 0),
      PRIMARY KEY (key_id, period))`);
    await q.query(`CREATE TABLE audit_log (
      id varchar(40) PRIMARY KEY,
      at timestamptz NOT NULL,
      action varchar(40) NOT NULL,
      key_id varchar(40),
      reason text,
      details text)`);
    await q.query(`CREATE INDEX ix_audit_log_key_at ON audit_log (key_id, at)`);
    await q.query(`CREATE INDEX ix_audit_log_at ON audit_log (at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP TABLE usage_counters`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE users`);
  }
}
