import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/**
 * Users, keys (unique digest), usage per key and period, audit log. Times are
 * DATETIME(3) in UTC (the driver's session and conversion are UTC); tables are
 * InnoDB, utf8mb4 with a binary no-pad collation (tableOptions), so
 * comparisons are byte for byte as on SQLite and PostgreSQL. Foreign keys are table constraints (MySQL
 * ignores inline REFERENCES), and every secondary index is declared in the
 * CREATE TABLE, before its foreign key, so InnoDB uses it and adds none of its own.
 * MySQL commits each DDL statement: a failed migration is not rolled back.
 */
export class KeyLifecycleMySql1763700000000 implements MigrationInterface {
  name = 'KeyLifecycleMySql1763700000000';

  async up(q: QueryRunner): Promise<void> {
    const table = await tableOptions(q);
    await q.query(`CREATE TABLE users (
      id VARCHAR(40) NOT NULL,
      email VARCHAR(254) NOT NULL,
      name VARCHAR(200) NULL,
      organization VARCHAR(200) NULL,
      created_at DATETIME(3) NOT NULL,
      PRIMARY KEY (id)
    ) ${table}`);
    await q.query(`CREATE TABLE api_keys (
      id VARCHAR(40) NOT NULL,
      user_id VARCHAR(40) NOT NULL,
      digest VARCHAR(64) NOT NULL,
      display_prefix VARCHAR(16) NOT NULL,
      environment VARCHAR(8) NOT NULL,
      license_type VARCHAR(16) NOT NULL,
      expires_at DATETIME(3) NOT NULL,
      revoked_at DATETIME(3) NULL,
      monthly_limit_source VARCHAR(8) NOT NULL,
      monthly_limit BIGINT NULL,
      created_at DATETIME(3) NOT NULL,
      PRIMARY KEY (id),
      UNIQUE INDEX ux_api_keys_digest (digest),
      INDEX ix_api_keys_user (user_id),
      CONSTRAINT fk_api_keys_user FOREIGN KEY (user_id) REFERENCES users (id),
      CONSTRAINT ck_api_keys_environment CHECK (environment IN ('live', 'test')),
      CONSTRAINT ck_api_keys_monthly_limit_source CHECK (monthly_limit_source IN ('tier', 'override')),
      CONSTRAINT ck_api_keys_monthly_limit CHECK (monthly_limit >= 0)
    ) ${table}`);
    await q.query(`CREATE TABLE usage_counters (
      key_id VARCHAR(40) NOT NULL,
      period VARCHAR(7) NOT NULL,
      used BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (key_id, period),
      CONSTRAINT fk_usage_counters_key FOREIGN KEY (key_id) REFERENCES api_keys (id),
      CONSTRAINT ck_usage_counters_used CHECK (used >= 0)
    ) ${table}`);
    await q.query(`CREATE TABLE audit_log (
      id VARCHAR(40) NOT NULL,
      at DATETIME(3) NOT NULL,
      action VARCHAR(40) NOT NULL,
      key_id VARCHAR(40) NULL,
      reason TEXT NULL,
      details TEXT NULL,
      PRIMARY KEY (id),
      INDEX ix_audit_log_key_at (key_id, at),
      INDEX ix_audit_log_at (at)
    ) ${table}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP TABLE usage_counters`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE users`);
  }
}
