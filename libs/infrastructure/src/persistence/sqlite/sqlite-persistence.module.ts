import { DynamicModule, Module } from '@nestjs/common';
import { SqliteDatabaseConfig } from '@svc/config';
import { type SecretsCipher } from '../../crypto/secrets-cipher';
import { sqlPersistenceModule } from '../typeorm/sql-persistence.module';
import { SqliteAnalyticsEventRepository } from './sqlite-analytics-event.repository';
import { sqliteDataSourceOptions } from './sqlite-data-source';
import { SqliteStatements } from './sqlite-statements';
import { SQLITE_FAULTS } from './sqlite-faults';
import { SqliteUnitOfWork } from './sqlite-unit-of-work';

/** SQLite, the embedded default: every persistence port on one file (better-sqlite3). */
@Module({})
export class SqlitePersistenceModule {
  /** `secrets` seals the secrets it keeps (SECRETS_KEY; SecretsCipher.plain() without one). */
  static forRoot(database: SqliteDatabaseConfig, secrets: SecretsCipher): DynamicModule {
    return sqlPersistenceModule(
      SqlitePersistenceModule,
      sqliteDataSourceOptions(database),
      {
        faults: SQLITE_FAULTS,
        statements: (dataSource) => new SqliteStatements(dataSource),
        events: (statements) => new SqliteAnalyticsEventRepository(statements),
        unitOfWork: (statements, events, writes, bell) => new SqliteUnitOfWork(statements, events, writes, bell),
      },
      secrets,
    );
  }
}
