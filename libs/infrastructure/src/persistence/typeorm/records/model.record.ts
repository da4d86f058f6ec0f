import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A model registry record; `name` is the key. `metadata` is a JSON object, as text. */
@Entity('models')
export class ModelRecord {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 40 })
  version!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: string;

  @Column({ type: 'varchar', length: 64 })
  paradigm!: string;

  @Column({ name: 'n_features', type: 'integer' })
  nFeatures!: number;

  @Column({ name: 'n_classes', type: 'integer' })
  nClasses!: number;

  @Column({ name: 'size_bytes', type: 'bigint', nullable: true })
  sizeBytes!: string | number | null;

  /** `sha256:<hex>` of the stored file, computed from its bytes. */
  @Column({ type: 'varchar', length: 71, nullable: true })
  checksum!: string | null;

  /** The operator's explicit download address, if any. */
  @Column({ name: 'download_url', type: 'varchar', length: 2048, nullable: true })
  downloadUrl!: string | null;

  /** The file's name in the model store, if one was uploaded. */
  @Column({ name: 'stored_file', type: 'varchar', length: 200, nullable: true })
  storedFile!: string | null;

  @Column({ name: 'requires_license', type: 'varchar', length: 16 })
  requiresLicense!: string;

  @Column({ name: 'owner_user_id', type: 'varchar', length: 40, nullable: true })
  ownerUserId!: string | null;

  @Column({ type: 'text' })
  metadata!: string;

  @Column({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'updated_at' })
  updatedAt!: Date;
}
