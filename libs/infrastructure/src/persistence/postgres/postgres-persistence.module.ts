import { DynamicModule, Module } from '@nestjs/common';
import { PostgresDatabaseConfig } from '@svc/config';
import { type SecretsCipher } from '../../crypto/secrets-cipher';
import { sqlPersistenceModule } from '../typeorm/sql-persistence.module';
import { PostgresAnalyticsEventRepository } from './postgres-analytics-event.repository';
import { postgresDataSourceOptions } from './postgres-data-source';
import { PostgresStatements } from './postgres-statements';
import { POSTGRES_FAULTS } from './postgres-faults';
import { PostgresUnitOfWork } from './postgres-unit-of-work';

/** PostgreSQL, production: every persistence port on one pool (pg). */
@Module({})
export class PostgresPersistenceModule {
  /** `secrets` seals the secrets it keeps (SECRETS_KEY; SecretsCipher.plain() without one). */
  static forRoot(database: PostgresDatabaseConfig, secrets: SecretsCipher): DynamicModule {
    return sqlPersistenceModule(
      PostgresPersistenceModule,
      postgresDataSourceOptions(database),
      {
        faults: POSTGRES_FAULTS,
        statements: (dataSource) => new PostgresStatements(dataSource),
        events: (statements) => new PostgresAnalyticsEventRepository(statements),
        unitOfWork: (statements, _events, writes, bell) => new PostgresUnitOfWork(statements, writes, bell),
      },
      secrets,
    );
  }
}
