import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Units used by one license (its keys, CONTRACT 16) in one calendar month (`YYYY-MM`); past periods are kept. */
@Entity('usage_counters')
export class UsageCounterRecord {
  @PrimaryColumn({ name: 'license_id', type: 'varchar', length: 40 })
  licenseId!: string;

  @PrimaryColumn({ type: 'varchar', length: 7 })
  period!: string;

  @Column({ type: 'bigint', default: 0 })
  used!: string | number;
}
