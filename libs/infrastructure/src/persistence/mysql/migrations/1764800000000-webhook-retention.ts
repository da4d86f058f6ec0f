import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { WEBHOOK_RETENTION_INDEXES } from '../../typeorm/webhooks-migration';

/** The webhook outbox's retention sweep (WEBHOOK_RETENTION_INDEXES, one list for the three databases). */
export class WebhookRetentionMySql1764800000000 implements MigrationInterface {
  name = 'WebhookRetentionMySql1764800000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, table, columns] of WEBHOOK_RETENTION_INDEXES) await q.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name, table] of [...WEBHOOK_RETENTION_INDEXES].reverse()) await q.query(`DROP INDEX ${name} ON ${table}`);
  }
}
