import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { CONSOLE_INDEXES } from '../../typeorm/console-indexes';

/** The console's indexes (CONSOLE_INDEXES, one list for the three databases). */
export class ConsoleIndexesPostgres1764100000000 implements MigrationInterface {
  name = 'ConsoleIndexesPostgres1764100000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, table, columns] of CONSOLE_INDEXES) await q.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...CONSOLE_INDEXES].reverse()) await q.query(`DROP INDEX ${name}`);
  }
}
