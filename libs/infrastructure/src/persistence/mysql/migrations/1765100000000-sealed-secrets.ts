import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { SEALED_WEBHOOK_SECRET_WIDTH } from '../../typeorm/webhooks-migration';

/**
 * Webhook secrets sealed at rest (SecretsCipher) are longer than the 100 characters their columns
 * took. MODIFY keeps the table's charset and collation (table-options.ts), as the columns had.
 */
export class SealedSecretsMySql1765100000000 implements MigrationInterface {
  name = 'SealedSecretsMySql1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await widen(q, SEALED_WEBHOOK_SECRET_WIDTH);
  }

  async down(q: QueryRunner): Promise<void> {
    await widen(q, 100);
  }
}

async function widen(q: QueryRunner, width: number): Promise<void> {
  await q.query(`ALTER TABLE webhook_endpoints MODIFY secret VARCHAR(${width}) NOT NULL, MODIFY previous_secret VARCHAR(${width}) NULL`);
}
