import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An operator (CONTRACT 21): its current token only as a digest (unique: it is looked up by it). */
@Entity('operators')
export class OperatorRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 16 })
  role!: string;

  @Column({ name: 'token_digest', type: 'varchar', length: 64 })
  tokenDigest!: string;

  @Column({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: Date, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'disabled_at', type: Date, nullable: true })
  disabledAt!: Date | null;
}
