import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { DROP_WEBHOOK_TABLES, webhookTables } from '../../typeorm/webhooks-migration';

/** Webhooks (CONTRACT 20): endpoints, the outbox of events, and their deliveries. */
export class WebhooksSqlite1764700000000 implements MigrationInterface {
  name = 'WebhooksSqlite1764700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of webhookTables({ instant: 'datetime', tableOptions: '' })) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of DROP_WEBHOOK_TABLES) await q.query(statement);
  }
}
