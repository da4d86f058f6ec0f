import { Command } from 'nest-commander';
import { DataSource, MigrationExecutor } from 'typeorm';
import { CliCommand, CommonOptions } from '../shared/cli-command';

/**
 * `migrate`: brings the schema up to date and exits. Opening the database
 * already applies pending migrations (migrationsRun); this runs them once more
 * (a no-op then) and reports what the database has applied.
 */
@Command({ name: 'migrate', description: 'apply pending database migrations and exit' })
export class MigrateCommand extends CliCommand {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    await this.dataSource.runMigrations({ transaction: 'each' });
    const executor = new MigrationExecutor(this.dataSource);
    const applied = (await executor.getExecutedMigrations()).map((m) => m.name).sort();
    const pending = (await executor.getPendingMigrations()).map((m) => m.name);
    const view = { applied, pending };
    this.print(options, view, () =>
      pending.length === 0
        ? `Database is up to date (${applied.length} migration${applied.length === 1 ? '' : 's'} applied).`
        : `Applied ${applied.length} migrations; ${pending.length} still pending: ${pending.join(', ')}`,
    );
  }
}
