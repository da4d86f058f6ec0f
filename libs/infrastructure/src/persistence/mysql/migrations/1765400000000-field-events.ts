import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/**
 * Events from the field (CONTRACT 22): when each event occurred (the events
 * stored before this take their receipt), whether it came in a batch, and
 * the idempotency keys, unique per license (the primary key, compared byte
 * for byte as every MySQL table here is), each naming the event it was first
 * sent with and the digest of what was reported.
 */
export class FieldEventsMySql1765400000000 implements MigrationInterface {
  name = 'FieldEventsMySql1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE analytics_events
      ADD COLUMN occurred_at DATETIME(3) NULL,
      ADD COLUMN received_via VARCHAR(8) NOT NULL DEFAULT 'log'`);
    await q.query(`UPDATE analytics_events SET occurred_at = received_at`);
    await q.query(`CREATE TABLE idempotency_keys (
      license_id VARCHAR(40) NOT NULL,
      idempotency_key VARCHAR(128) NOT NULL,
      event_id VARCHAR(40) NOT NULL,
      reported_digest VARCHAR(64) NOT NULL,
      claimed_at DATETIME(3) NOT NULL,
      PRIMARY KEY (license_id, idempotency_key)
    ) ${await tableOptions(q)}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
    await q.query(`ALTER TABLE analytics_events DROP COLUMN received_via, DROP COLUMN occurred_at`);
  }
}
