import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A generated license signing key (CONTRACT 19), by generation. `private_key` is never logged. */
@Entity('license_signing_keys')
export class LicenseSigningKeyRecord {
  @PrimaryColumn({ type: 'integer' })
  generation!: number;

  @Column({ name: 'private_key', type: 'text' })
  privateKey!: string;

  @Column({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'signs_from' })
  signsFrom!: Date;
}
