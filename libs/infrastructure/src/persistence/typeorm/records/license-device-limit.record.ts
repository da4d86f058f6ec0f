import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A license's `max_devices` override (CONTRACT 23); no row: its tier's applies. */
@Entity('license_device_limits')
export class LicenseDeviceLimitRecord {
  /** The license (chain of rotated keys): the first key's id. */
  @PrimaryColumn({ name: 'license_id', type: 'varchar', length: 40 })
  licenseId!: string;

  @Column({ name: 'max_devices', type: 'integer' })
  maxDevices!: number;
}
