import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Secrets the service generates when the operator configured none (CONTRACT 19), kept in the
 * database so every instance uses the same: the model link secret by name, and the license
 * signing keys by generation (1 the first, one more per rotation). The primary keys are what
 * instances starting together race on: the first insert wins, the others read it back.
 */
export class GeneratedSecretsPostgres1764300000000 implements MigrationInterface {
  name = 'GeneratedSecretsPostgres1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE generated_secrets (
      name varchar(64) PRIMARY KEY,
      value text NOT NULL,
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE license_signing_keys (
      generation integer PRIMARY KEY CHECK (generation >= 1),
      private_key text NOT NULL,
      created_at timestamptz NOT NULL,
      signs_from timestamptz NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE license_signing_keys`);
    await q.query(`DROP TABLE generated_secrets`);
  }
}
