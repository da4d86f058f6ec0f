import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { AUDIT_ID_INDEX, AUDIT_INDEXES_BEFORE, AUDIT_ORDER_INDEXES } from '../../typeorm/audit-order';

const COLUMNS = 'id, at, action, key_id, reason, details';

/** An entry's columns as the first migration made them. */
const ENTRY = 'id varchar(40) NOT NULL, at datetime NOT NULL, action varchar(40) NOT NULL, key_id varchar(40), reason text, details text';

/**
 * The audit log's order (AUDIT_ORDER_INDEXES): `seq INTEGER PRIMARY KEY
 * AUTOINCREMENT` (SQLite adds such a key only to a new table, so the table is
 * rebuilt), existing entries numbered in their old order (time, then id);
 * the id stays unique.
 */
export class AuditOrderSqlite1764200000000 implements MigrationInterface {
  name = 'AuditOrderSqlite1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE audit_log_ordered (seq INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ${ENTRY})`);
    await q.query(`INSERT INTO audit_log_ordered (${COLUMNS}) SELECT ${COLUMNS} FROM audit_log ORDER BY at, id`);
    await q.query(`DROP TABLE audit_log`);
    await q.query(`ALTER TABLE audit_log_ordered RENAME TO audit_log`);
    await q.query(`CREATE UNIQUE INDEX ${AUDIT_ID_INDEX} ON audit_log (id)`);
    for (const [name, columns] of AUDIT_ORDER_INDEXES) await q.query(`CREATE INDEX ${name} ON audit_log (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE audit_log_by_id (${ENTRY}, PRIMARY KEY (id))`);
    await q.query(`INSERT INTO audit_log_by_id (${COLUMNS}) SELECT ${COLUMNS} FROM audit_log ORDER BY seq`);
    await q.query(`DROP TABLE audit_log`);
    await q.query(`ALTER TABLE audit_log_by_id RENAME TO audit_log`);
    for (const [name, columns] of AUDIT_INDEXES_BEFORE) await q.query(`CREATE INDEX ${name} ON audit_log (${columns})`);
  }
}
