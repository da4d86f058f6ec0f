import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('audit_log')
export class AuditEntryRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column()
  at!: Date;

  @Column({ type: 'varchar', length: 40 })
  action!: string;

  @Column({ name: 'key_id', type: 'varchar', length: 40, nullable: true })
  keyId!: string | null;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  /** A JSON object, as text. */
  @Column({ type: 'text', nullable: true })
  details!: string | null;
}
