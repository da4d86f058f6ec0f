import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Analytics events: the key by id (never the key), the period they count in. */
export class AnalyticsEventsPostgres1763800000000 implements MigrationInterface {
  name = 'AnalyticsEventsPostgres1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE analytics_events (
      id varchar(40) PRIMARY KEY,
      key_id varchar(40) NOT NULL REFERENCES api_keys(id),
      environment varchar(8) NOT NULL,
      event_type varchar(16) NOT NULL CHECK (event_type IN ('inference', 'model_load', 'error')),
      model_name varchar(200),
      inference_type varchar(16) CHECK (inference_type IN ('batch', 'streaming')),
      duration_ms double precision,
      success boolean,
      error_message text,
      metadata text,
      period varchar(7) NOT NULL,
      received_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX ix_analytics_events_key_period ON analytics_events (key_id, period)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_events`);
  }
}
