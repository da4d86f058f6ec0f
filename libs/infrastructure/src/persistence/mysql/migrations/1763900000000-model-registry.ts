import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableOptions } from './table-options';

/** The model registry: one row per model name; the file lives in the model store. */
export class ModelRegistryMySql1763900000000 implements MigrationInterface {
  name = 'ModelRegistryMySql1763900000000';

  async up(q: QueryRunner): Promise<void> {
    const table = await tableOptions(q);
    await q.query(`CREATE TABLE models (
      name VARCHAR(100) NOT NULL,
      version VARCHAR(40) NOT NULL,
      type VARCHAR(16) NOT NULL,
      paradigm VARCHAR(64) NOT NULL,
      n_features INT NOT NULL,
      n_classes INT NOT NULL,
      size_bytes BIGINT NULL,
      checksum VARCHAR(71) NULL,
      download_url VARCHAR(2048) NULL,
      stored_file VARCHAR(200) NULL,
      requires_license VARCHAR(16) NOT NULL,
      owner_user_id VARCHAR(40) NULL,
      metadata TEXT NOT NULL,
      created_at DATETIME(3) NOT NULL,
      updated_at DATETIME(3) NOT NULL,
      PRIMARY KEY (name),
      INDEX ix_models_paradigm_name (paradigm, name),
      INDEX ix_models_owner (owner_user_id),
      CONSTRAINT fk_models_owner FOREIGN KEY (owner_user_id) REFERENCES users (id),
      CONSTRAINT ck_models_type CHECK (type IN ('SvcLDA', 'SvcQDA', 'SvcProbit')),
      CONSTRAINT ck_models_n_features CHECK (n_features >= 1),
      CONSTRAINT ck_models_n_classes CHECK (n_classes >= 2),
      CONSTRAINT ck_models_size_bytes CHECK (size_bytes >= 0)
    ) ${table}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE models`);
  }
}
