import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { KEY_EXPIRY_INDEXES } from '../../typeorm/webhooks-migration';

/** Keys by expiry, for the `key.expiring` search (KEY_EXPIRY_INDEXES, one list for the three databases). */
export class KeyExpiryIndexSqlite1764900000000 implements MigrationInterface {
  name = 'KeyExpiryIndexSqlite1764900000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, table, columns] of KEY_EXPIRY_INDEXES) await q.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...KEY_EXPIRY_INDEXES].reverse()) await q.query(`DROP INDEX ${name}`);
  }
}
