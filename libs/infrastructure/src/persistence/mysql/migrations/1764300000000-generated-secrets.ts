import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/**
 * Secrets the service generates when the operator configured none (CONTRACT 19), kept in the
 * database so every instance uses the same: the model link secret by name, and the license
 * signing keys by generation (1 the first, one more per rotation). The primary keys are what
 * instances starting together race on: the first insert wins, the others read it back.
 */
export class GeneratedSecretsMySql1764300000000 implements MigrationInterface {
  name = 'GeneratedSecretsMySql1764300000000';

  async up(q: QueryRunner): Promise<void> {
    const table = await tableOptions(q);
    await q.query(`CREATE TABLE generated_secrets (
      name VARCHAR(64) NOT NULL,
      value TEXT NOT NULL,
      created_at DATETIME(3) NOT NULL,
      PRIMARY KEY (name)
    ) ${table}`);
    await q.query(`CREATE TABLE license_signing_keys (
      generation INT NOT NULL,
      private_key TEXT NOT NULL,
      created_at DATETIME(3) NOT NULL,
      signs_from DATETIME(3) NOT NULL,
      PRIMARY KEY (generation),
      CONSTRAINT ck_license_signing_keys_generation CHECK (generation >= 1)
    ) ${table}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE license_signing_keys`);
    await q.query(`DROP TABLE generated_secrets`);
  }
}
