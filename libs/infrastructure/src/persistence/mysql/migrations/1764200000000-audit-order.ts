import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { AUDIT_ID_INDEX, AUDIT_INDEXES_BEFORE, AUDIT_ORDER_INDEXES } from '../../typeorm/audit-order';

/**
 * The audit log's order (AUDIT_ORDER_INDEXES): `seq INT AUTO_INCREMENT`, the
 * primary key, existing entries numbered in their old order (time, then id)
 * and the counter continuing after them; the id stays unique.
 */
export class AuditOrderMySql1764200000000 implements MigrationInterface {
  name = 'AuditOrderMySql1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_log ADD COLUMN seq INT NULL FIRST`);
    await q.query(`SET @audit_seq := 0`);
    await q.query(`UPDATE audit_log SET seq = (@audit_seq := @audit_seq + 1) ORDER BY at, id`);
    await q.query(`ALTER TABLE audit_log
      DROP PRIMARY KEY,
      MODIFY seq INT NOT NULL AUTO_INCREMENT,
      ADD PRIMARY KEY (seq),
      ADD UNIQUE INDEX ${AUDIT_ID_INDEX} (id),
      ${AUDIT_INDEXES_BEFORE.map(([name]) => `DROP INDEX ${name}`).join(', ')},
      ${AUDIT_ORDER_INDEXES.map(([name, columns]) => `ADD INDEX ${name} (${columns})`).join(', ')}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_log
      MODIFY seq INT NOT NULL,
      DROP PRIMARY KEY,
      ADD PRIMARY KEY (id),
      DROP INDEX ${AUDIT_ID_INDEX},
      ${AUDIT_ORDER_INDEXES.map(([name]) => `DROP INDEX ${name}`).join(', ')},
      ${AUDIT_INDEXES_BEFORE.map(([name, columns]) => `ADD INDEX ${name} (${columns})`).join(', ')}`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN seq`);
  }
}
