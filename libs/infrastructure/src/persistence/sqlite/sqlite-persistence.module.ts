import { DynamicModule, Module } from '@nestjs/common';
import { SqliteDatabaseConfig } from '@svc/config';
import { sqlPersistenceModule } from '../typeorm/sql-persistence.module';
import { SqliteAnalyticsEventRepository } from './sqlite-analytics-event.repository';
import { sqliteDataSourceOptions } from './sqlite-data-source';
import { SqliteModelRepository } from './sqlite-model.repository';
import { SqliteStatements } from './sqlite-statements';
import { SQLITE_FAULTS } from './sqlite-faults';

/** SQLite, the embedded default: every persistence port on one file (better-sqlite3). */
@Module({})
export class SqlitePersistenceModule {
  static forRoot(database: SqliteDatabaseConfig): DynamicModule {
    return sqlPersistenceModule(SqlitePersistenceModule, sqliteDataSourceOptions(database), {
      faults: SQLITE_FAULTS,
      statements: (dataSource) => new SqliteStatements(dataSource),
      events: (statements) => new SqliteAnalyticsEventRepository(statements),
      models: (records, statements) => new SqliteModelRepository(records, statements),
    });
  }
}
