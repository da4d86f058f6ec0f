import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { DROP_WEBHOOK_TABLES, webhookTables } from '../../typeorm/webhooks-migration';
import { tableOptions } from './table-options';

/** Webhooks (CONTRACT 20): endpoints, the outbox of events, and their deliveries. */
export class WebhooksMySql1764700000000 implements MigrationInterface {
  name = 'WebhooksMySql1764700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of webhookTables({ instant: 'DATETIME(3)', tableOptions: await tableOptions(q) })) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of DROP_WEBHOOK_TABLES) await q.query(statement);
  }
}
