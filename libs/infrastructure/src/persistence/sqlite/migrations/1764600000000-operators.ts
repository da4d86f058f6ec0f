import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { AUDIT_ACTOR_BACKFILL } from '../../typeorm/audit-actor-backfill';

/**
 * Operators with their own tokens and roles (CONTRACT 21): the `operators`
 * table (the current token as a digest, unique), and the actor of every audit
 * entry (`actor_type`, `actor_id`, `actor_name`, listed by actor newest first).
 */
export class OperatorsSqlite1764600000000 implements MigrationInterface {
  name = 'OperatorsSqlite1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE operators (
      id varchar(40) PRIMARY KEY NOT NULL,
      name varchar(200) NOT NULL,
      email varchar(254),
      role varchar(16) NOT NULL,
      token_digest varchar(64) NOT NULL,
      created_at datetime NOT NULL,
      last_used_at datetime,
      disabled_at datetime)`);
    await q.query(`CREATE UNIQUE INDEX ux_operators_token_digest ON operators (token_digest)`);
    await q.query(`ALTER TABLE audit_log ADD COLUMN actor_type varchar(16) NOT NULL DEFAULT 'system'`);
    await q.query(`ALTER TABLE audit_log ADD COLUMN actor_id varchar(40)`);
    await q.query(`ALTER TABLE audit_log ADD COLUMN actor_name varchar(200)`);
    for (const statement of AUDIT_ACTOR_BACKFILL) await q.query(statement);
    await q.query(`CREATE INDEX ix_audit_log_actor_order ON audit_log (actor_id, at, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_audit_log_actor_order`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN actor_name`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN actor_id`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN actor_type`);
    await q.query(`DROP TABLE operators`);
  }
}
