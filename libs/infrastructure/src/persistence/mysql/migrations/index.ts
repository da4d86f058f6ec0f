/** MySQL / MariaDB's migrations, in order; the schema test holds them to the other databases'. */
export const MYSQL_MIGRATIONS: Array<new () => import('typeorm').MigrationInterface> = [];
