import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A key's signed offline license, kept for validate to hand out (issue 40). The token is a signed public claim set, never a secret. */
@Entity('license_tokens')
export class LicenseTokenRecord {
  @PrimaryColumn({ name: 'key_id', type: 'varchar', length: 40 })
  keyId!: string;

  /** The SHA-256 (hex) of the device the license names (CONTRACT 23); '' when it names none. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  device!: string;

  @Column({ type: 'text' })
  token!: string;

  @Column({ type: 'varchar', length: 64 })
  kid!: string;

  /** What the license says apart from its times, as JSON text (licenseTermsOf). */
  @Column({ type: 'text' })
  terms!: string;

  @Column({ name: 'signed_at' })
  signedAt!: Date;

  @Column({ name: 'refresh_at' })
  refreshAt!: Date;
}
