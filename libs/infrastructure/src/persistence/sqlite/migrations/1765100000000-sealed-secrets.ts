import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { SEALED_WEBHOOK_SECRET_WIDTH, WEBHOOK_ENDPOINT_COLUMNS, webhookEndpointsTable } from '../../typeorm/webhooks-migration';

/**
 * Webhook secrets sealed at rest (SecretsCipher) are longer than the 100 characters their columns
 * took: SQLite cannot alter a column's type, so the table (no index but its key, and no
 * reference to it) is rebuilt with SEALED_WEBHOOK_SECRET_WIDTH, its rows copied.
 */
export class SealedSecretsSqlite1765100000000 implements MigrationInterface {
  name = 'SealedSecretsSqlite1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await rebuild(q, SEALED_WEBHOOK_SECRET_WIDTH);
  }

  async down(q: QueryRunner): Promise<void> {
    await rebuild(q, 100);
  }
}

async function rebuild(q: QueryRunner, secretWidth: number): Promise<void> {
  await q.query(webhookEndpointsTable({ instant: 'datetime', tableOptions: '' }, 'webhook_endpoints_rebuilt', secretWidth));
  await q.query(
    `INSERT INTO webhook_endpoints_rebuilt (${WEBHOOK_ENDPOINT_COLUMNS}) SELECT ${WEBHOOK_ENDPOINT_COLUMNS} FROM webhook_endpoints`,
  );
  await q.query('DROP TABLE webhook_endpoints');
  await q.query('ALTER TABLE webhook_endpoints_rebuilt RENAME TO webhook_endpoints');
}
