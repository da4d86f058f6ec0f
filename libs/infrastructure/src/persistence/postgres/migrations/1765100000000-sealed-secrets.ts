import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { SEALED_WEBHOOK_SECRET_WIDTH } from '../../typeorm/webhooks-migration';

/** Webhook secrets sealed at rest (SecretsCipher) are longer than the 100 characters their columns took. */
export class SealedSecretsPostgres1765100000000 implements MigrationInterface {
  name = 'SealedSecretsPostgres1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await widen(q, SEALED_WEBHOOK_SECRET_WIDTH);
  }

  async down(q: QueryRunner): Promise<void> {
    await widen(q, 100);
  }
}

async function widen(q: QueryRunner, width: number): Promise<void> {
  await q.query(
    `ALTER TABLE webhook_endpoints ALTER COLUMN secret TYPE varchar(${width}), ALTER COLUMN previous_secret TYPE varchar(${width})`,
  );
}
