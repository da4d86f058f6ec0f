import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The model registry: one row per model name; the file lives in the model store. */
export class ModelRegistryPostgres1763900000000 implements MigrationInterface {
  name = 'ModelRegistryPostgres1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE models (
      name varchar(100) PRIMARY KEY,
      version varchar(40) NOT NULL,
      type varchar(16) NOT NULL CHECK (type IN ('SvcLDA', 'SvcQDA', 'SvcProbit')),
      paradigm varchar(64) NOT NULL,
      n_features integer NOT NULL CHECK (n_features >= 1),
      n_classes integer NOT NULL CHECK (n_classes >= 2),
      size_bytes bigint CHECK (size_bytes >= 0),
      checksum varchar(71),
      download_url varchar(2048),
      stored_file varchar(200),
      requires_license varchar(16) NOT NULL,
      owner_user_id varchar(40) REFERENCES users(id),
      metadata text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX ix_models_paradigm_name ON models (paradigm, name)`);
    await q.query(`CREATE INDEX ix_models_owner ON models (owner_user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE models`);
  }
}
