import { loadConfig } from '@svc/config';
import { mysqlDataSourceOptions } from '@svc/infrastructure/persistence/mysql/mysql-data-source';
import { postgresDataSourceOptions } from '@svc/infrastructure/persistence/postgres/postgres-data-source';
import { sqliteDataSourceOptions } from '@svc/infrastructure/persistence/sqlite/sqlite-data-source';
import { DataSource, type DataSourceOptions } from 'typeorm';

/** The service's own TypeORM options for the database (migrations run at initialisation, as at start-up). */
export function productionOptions(url: string): DataSourceOptions {
  const database = loadConfig({ DATABASE_URL: url }).database;
  switch (database.kind) {
    case 'sqlite':
      return sqliteDataSourceOptions(database);
    case 'postgres':
      return postgresDataSourceOptions(database);
    case 'mysql':
      return mysqlDataSourceOptions(database);
  }
}

/**
 * The database at the schema just before one migration (named by its
 * timestamp): every earlier migration applied, that one and the later ones
 * not, for a test that writes data as it was before it. The service then
 * applies the rest at start-up, as an upgrade does.
 */
export async function openWithout(url: string, timestamp: string): Promise<DataSource> {
  const options = productionOptions(url);
  const all = options.migrations as Array<{ name: string }>;
  const at = all.findIndex((m) => String(m.name).endsWith(timestamp));
  expect(at).toBeGreaterThan(0);
  return new DataSource({ ...options, migrations: all.slice(0, at) } as DataSourceOptions).initialize();
}
