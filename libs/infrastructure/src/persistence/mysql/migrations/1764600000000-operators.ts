import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { AUDIT_ACTOR_BACKFILL } from '../../typeorm/audit-actor-backfill';
import { tableOptions } from './table-options';

/**
 * Operators with their own tokens and roles (CONTRACT 21): the `operators`
 * table (the current token as a digest, unique), and the actor of every audit
 * entry (`actor_type`, `actor_id`, `actor_name`, listed by actor newest first).
 */
export class OperatorsMySql1764600000000 implements MigrationInterface {
  name = 'OperatorsMySql1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE operators (
      id VARCHAR(40) NOT NULL,
      name VARCHAR(200) NOT NULL,
      email VARCHAR(254) NULL,
      role VARCHAR(16) NOT NULL,
      token_digest VARCHAR(64) NOT NULL,
      created_at DATETIME(3) NOT NULL,
      last_used_at DATETIME(3) NULL,
      disabled_at DATETIME(3) NULL,
      PRIMARY KEY (id),
      UNIQUE INDEX ux_operators_token_digest (token_digest)
    ) ${await tableOptions(q)}`);
    await q.query(`ALTER TABLE audit_log
      ADD COLUMN actor_type VARCHAR(16) NOT NULL DEFAULT 'system',
      ADD COLUMN actor_id VARCHAR(40) NULL,
      ADD COLUMN actor_name VARCHAR(200) NULL`);
    for (const statement of AUDIT_ACTOR_BACKFILL) await q.query(statement);
    await q.query(`CREATE INDEX ix_audit_log_actor_order ON audit_log (actor_id, at, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_audit_log_actor_order ON audit_log`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN actor_name, DROP COLUMN actor_id, DROP COLUMN actor_type`);
    await q.query(`DROP TABLE operators`);
  }
}
