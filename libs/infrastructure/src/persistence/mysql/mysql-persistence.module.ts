import { DynamicModule, Module } from '@nestjs/common';
import { MySqlDatabaseConfig } from '@svc/config';
import { type SecretsCipher } from '../../crypto/secrets-cipher';
import { sqlPersistenceModule } from '../typeorm/sql-persistence.module';
import { MySqlAnalyticsEventRepository } from './mysql-analytics-event.repository';
import { mysqlDataSourceOptions } from './mysql-data-source';
import { MySqlStatements } from './mysql-statements';
import { MYSQL_FAULTS } from './mysql-faults';
import { MySqlUnitOfWork } from './mysql-unit-of-work';

/** MySQL 8 / MariaDB 10.11: every persistence port on one pool (mysql2). The worked example of docs/EXTENDING.md. */
@Module({})
export class MySqlPersistenceModule {
  /** `secrets` seals the secrets it keeps (SECRETS_KEY; SecretsCipher.plain() without one). */
  static forRoot(database: MySqlDatabaseConfig, secrets: SecretsCipher): DynamicModule {
    return sqlPersistenceModule(
      MySqlPersistenceModule,
      mysqlDataSourceOptions(database),
      {
        faults: MYSQL_FAULTS,
        statements: (dataSource) => new MySqlStatements(dataSource, database.statementTimeoutMs),
        events: (statements) => new MySqlAnalyticsEventRepository(statements),
        unitOfWork: (statements, events, writes, bell) => new MySqlUnitOfWork(statements, events, writes, bell),
      },
      secrets,
    );
  }
}
