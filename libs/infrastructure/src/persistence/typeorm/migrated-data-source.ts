import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions } from 'typeorm';

/**
 * Opens the database and, where its options say so (`migrationsRun`, as every
 * database of the service does), applies the pending migrations, as TypeORM's
 * own `initialize` would, in the same transaction mode, but logging each
 * migration applied: one info line per migration (`Database`: "migration
 * <name> applied"), so an operator sees at start-up that a new database was
 * set up or an old one upgraded. An up-to-date database logs nothing. A
 * failing migration closes the connection again and fails the start.
 */
export async function openMigratedDataSource(options: DataSourceOptions, logger = new Logger('Database')): Promise<DataSource> {
  const dataSource = await new DataSource({ ...options, migrationsRun: false }).initialize();
  if (!options.migrationsRun) return dataSource;
  try {
    const applied = await dataSource.runMigrations({ transaction: options.migrationsTransactionMode ?? 'all' });
    for (const migration of applied) logger.log(`migration ${migration.name} applied`);
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}
