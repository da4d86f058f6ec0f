import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('audit_log')
export class AuditEntryRecord {
  /**
   * The order of appending, given by the database (SQLite's AUTOINCREMENT,
   * PostgreSQL's identity, MySQL's AUTO_INCREMENT): entries of the same `at`
   * are listed by it (AuditLog.list). Never part of an entry.
   */
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq!: number;

  /** The entry's id (`aud_…`); unique. */
  @Column({ type: 'varchar', length: 40 })
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

  /** Who made the change (CONTRACT 21): operator, bootstrap, key, cli or system. */
  @Column({ name: 'actor_type', type: 'varchar', length: 16, default: 'system' })
  actorType!: string;

  /** The operator's id, or the key's for a key's own call; null otherwise. */
  @Column({ name: 'actor_id', type: 'varchar', length: 40, nullable: true })
  actorId!: string | null;

  /** The operator's name, or the OS user of a CLI run; null otherwise. */
  @Column({ name: 'actor_name', type: 'varchar', length: 200, nullable: true })
  actorName!: string | null;
}
