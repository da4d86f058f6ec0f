import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/** Analytics events: the key by id (never the key), the period they count in. */
export class AnalyticsEventsMySql1763800000000 implements MigrationInterface {
  name = 'AnalyticsEventsMySql1763800000000';

  async up(q: QueryRunner): Promise<void> {
    const table = await tableOptions(q);
    await q.query(`CREATE TABLE analytics_events (
      id VARCHAR(40) NOT NULL,
      key_id VARCHAR(40) NOT NULL,
      environment VARCHAR(8) NOT NULL,
      event_type VARCHAR(16) NOT NULL,
      model_name VARCHAR(200) NULL,
      inference_type VARCHAR(16) NULL,
      duration_ms DOUBLE NULL,
      success BOOLEAN NULL,
      error_message TEXT NULL,
      metadata TEXT NULL,
      period VARCHAR(7) NOT NULL,
      received_at DATETIME(3) NOT NULL,
      PRIMARY KEY (id),
      INDEX ix_analytics_events_key_period (key_id, period),
      CONSTRAINT fk_analytics_events_key FOREIGN KEY (key_id) REFERENCES api_keys (id),
      CONSTRAINT ck_analytics_events_event_type CHECK (event_type IN ('inference', 'model_load', 'error')),
      CONSTRAINT ck_analytics_events_inference_type CHECK (inference_type IN ('batch', 'streaming'))
    ) ${table}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_events`);
  }
}
