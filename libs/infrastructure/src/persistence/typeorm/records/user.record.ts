import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('users')
export class UserRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  /** emailSearchForm(email): what the console's e-mail search compares (index ix_users_email_lower). */
  @Column({ name: 'email_lower', type: 'varchar', length: 254 })
  emailLower!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  organization!: string | null;

  @Column({ name: 'created_at' })
  createdAt!: Date;
}
