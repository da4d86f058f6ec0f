import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
export class ApiKeyRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'user_id', type: 'varchar', length: 40 })
  userId!: string;

  /** SHA-256 (or HMAC) of the key, hex; unique. The plaintext is never stored. */
  @Column({ type: 'varchar', length: 64 })
  digest!: string;

  @Column({ name: 'display_prefix', type: 'varchar', length: 16 })
  displayPrefix!: string;

  @Column({ type: 'varchar', length: 8 })
  environment!: string;

  @Column({ name: 'license_type', type: 'varchar', length: 16 })
  licenseType!: string;

  @Column({ name: 'expires_at' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt!: Date | null;

  /** `tier` (follow the tier's limit) or `override` (use `monthly_limit`, null meaning unlimited). */
  @Column({ name: 'monthly_limit_source', type: 'varchar', length: 8 })
  monthlyLimitSource!: string;

  @Column({ name: 'monthly_limit', type: 'bigint', nullable: true })
  monthlyLimit!: string | number | null;

  @Column({ name: 'created_at' })
  createdAt!: Date;

  /** The license (chain of rotated keys) the key belongs to: the first key's id (CONTRACT 16). */
  @Column({ name: 'license_id', type: 'varchar', length: 40 })
  licenseId!: string;

  @Column({ name: 'rotated_from', type: 'varchar', length: 40, nullable: true })
  rotatedFrom!: string | null;

  @Column({ name: 'rotated_to', type: 'varchar', length: 40, nullable: true })
  rotatedTo!: string | null;
}
