import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A secret the service generated (CONTRACT 19), by name. `value` is never logged. */
@Entity('generated_secrets')
export class GeneratedSecretRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ name: 'created_at' })
  createdAt!: Date;
}
