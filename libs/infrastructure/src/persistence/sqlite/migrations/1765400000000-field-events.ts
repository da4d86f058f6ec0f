import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Events from the field (CONTRACT 22): when each event occurred (the events
 * stored before this take their receipt), whether it came in a batch, and
 * the idempotency keys, unique per license (the primary key), each naming
 * the event it was first sent with and the digest of what was reported.
 */
export class FieldEventsSqlite1765400000000 implements MigrationInterface {
  name = 'FieldEventsSqlite1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE analytics_events ADD COLUMN occurred_at datetime`);
    await q.query(`UPDATE analytics_events SET occurred_at = received_at`);
    await q.query(`ALTER TABLE analytics_events ADD COLUMN received_via varchar(8) NOT NULL DEFAULT 'log'`);
    await q.query(`CREATE TABLE idempotency_keys (
      license_id varchar(40) NOT NULL,
      idempotency_key varchar(128) NOT NULL,
      event_id varchar(40) NOT NULL,
      reported_digest varchar(64) NOT NULL,
      claimed_at datetime NOT NULL,
      PRIMARY KEY (license_id, idempotency_key))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
    await q.query(`ALTER TABLE analytics_events DROP COLUMN received_via`);
    await q.query(`ALTER TABLE analytics_events DROP COLUMN occurred_at`);
  }
}
