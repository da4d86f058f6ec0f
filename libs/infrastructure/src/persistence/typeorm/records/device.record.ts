import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A device of a license (CONTRACT 23): its fingerprint only as a SHA-256 digest (hex), never the value. */
@Entity('devices')
export class DeviceRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  /** The license (chain of rotated keys): the first key's id. */
  @Column({ name: 'license_id', type: 'varchar', length: 40 })
  licenseId!: string;

  @Column({ name: 'fingerprint_digest', type: 'varchar', length: 64 })
  fingerprintDigest!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  platform!: string | null;

  @Column({ name: 'activated_at' })
  activatedAt!: Date;

  @Column({ name: 'last_seen_at' })
  lastSeenAt!: Date;

  @Column({ name: 'deactivated_at', type: Date, nullable: true })
  deactivatedAt!: Date | null;

  /** `sdk`, `operator` or `lease_expired`; null while active. */
  @Column({ name: 'deactivation_reason', type: 'varchar', length: 16, nullable: true })
  deactivationReason!: string | null;
}
