import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { type MigrationDialect, addEmailSearchForm, removeEmailSearchForm } from '../../typeorm/email-search-migration';

const DIALECT: MigrationDialect = { param: () => '?', dropUsersIndex: (name) => `DROP INDEX ${name}` };

/** users.email_lower, indexed, for the e-mail search (addEmailSearchForm: one migration for the three databases). */
export class EmailSearchSqlite1764500000000 implements MigrationInterface {
  name = 'EmailSearchSqlite1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await addEmailSearchForm(q, DIALECT);
  }

  async down(q: QueryRunner): Promise<void> {
    await removeEmailSearchForm(q, DIALECT);
  }
}
