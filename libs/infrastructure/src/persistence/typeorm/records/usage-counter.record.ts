import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Units used by one key in one calendar month (`YYYY-MM`); past periods are kept. */
@Entity('usage_counters')
export class UsageCounterRecord {
  @PrimaryColumn({ name: 'key_id', type: 'varchar', length: 40 })
  keyId!: string;

  @PrimaryColumn({ type: 'varchar', length: 7 })
  period!: string;

  @Column({ type: 'bigint', default: 0 })
  used!: string | number;
}
