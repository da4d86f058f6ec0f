import { emailSearchForm } from '@svc/domain';
import { type QueryRunner } from 'typeorm';
import { selectedRows } from './migration-rows';

/** How a database spells what the e-mail search migration needs. */
export interface MigrationDialect {
  /** The n-th (1-based) bound parameter. */
  param(n: number): string;
  /** DROP INDEX of an index on `users`. */
  dropUsersIndex(name: string): string;
}

const BATCH = 1000;

/**
 * E-mail search that finds people: users.email_lower holds the address in its search form
 * (emailSearchForm), indexed, so a case-insensitive match and a starts-with search are index ranges on
 * every database (MariaDB has no index on an expression). It replaces the index on the address as
 * typed, which nothing searches any more. The '' default only because SQLite cannot add a NOT NULL
 * column without one; the service always sets it. The one migration of the three databases.
 */
export async function addEmailSearchForm(q: QueryRunner, dialect: MigrationDialect): Promise<void> {
  await q.query(`ALTER TABLE users ADD COLUMN email_lower varchar(254) NOT NULL DEFAULT ''`);
  await backfill(q, dialect.param);
  await q.query(`CREATE INDEX ix_users_email_lower ON users (email_lower)`);
  await q.query(dialect.dropUsersIndex('ix_users_email'));
}

export async function removeEmailSearchForm(q: QueryRunner, dialect: MigrationDialect): Promise<void> {
  await q.query(`CREATE INDEX ix_users_email ON users (email)`);
  await q.query(dialect.dropUsersIndex('ix_users_email_lower'));
  await q.query(`ALTER TABLE users DROP COLUMN email_lower`);
}

/**
 * The search form of the users already there, by the domain's one rule (not a database's LOWER, which
 * differs between the three beyond ASCII): a batch of ids at a time, in id order, one UPDATE per batch.
 */
async function backfill(q: QueryRunner, param: (n: number) => string): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await selectedRows<{ id: string; email: string }>(
      q,
      `SELECT id, email FROM users WHERE id > ${param(1)} ORDER BY id LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return;
    const cases = rows.map((_, i) => `WHEN ${param(2 * i + 1)} THEN ${param(2 * i + 2)}`).join(' ');
    const ids = rows.map((_, i) => param(2 * rows.length + i + 1)).join(', ');
    await q.query(`UPDATE users SET email_lower = CASE id ${cases} END WHERE id IN (${ids})`, [
      ...rows.flatMap((r) => [r.id, emailSearchForm(r.email)]),
      ...rows.map((r) => r.id),
    ]);
    after = rows[rows.length - 1].id;
  }
}
