import { type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { KeyDirectory } from '@svc/application';
import { TypeOrmModule, getDataSourceToken, getRepositoryToken } from '@nestjs/typeorm';
import {
  AnalyticsEventRepository,
  ApiKeyRepository,
  AuditLog,
  KeyContextRepository,
  ModelRepository,
  OperatorRepository,
  UsageRepository,
  UserRepository,
} from '@svc/domain';
import { type DataSource, type DataSourceOptions, type Repository } from 'typeorm';
import { LoggingAuditLog } from '../../audit/logging-audit-log';
import { DatabasePing } from '../database-ping';
import { ApiKeyRecord, ModelRecord, RECORDS } from './records';
import { type TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';
import { TypeOrmAuditLog } from './repositories/typeorm-audit-log';
import { TypeOrmOperatorRepository } from './repositories/typeorm-operator.repository';
import { TypeOrmKeyContextRepository } from './repositories/typeorm-key-context.repository';
import { TypeOrmUserRepository } from './repositories/typeorm-user.repository';
import { SqlKeyDirectory } from './repositories/sql-key-directory';
import { SqlUsageRepository } from './repositories/sql-usage.repository';
import { SqlDatabasePing } from './sql-database-ping';
import { SqlStatements } from './sql-statements';

/** What a SQL database's module supplies: its statements, and its own adapters where its dialect differs. */
export interface SqlDialectAdapters<S extends SqlStatements> {
  readonly statements: (dataSource: DataSource) => S;
  /** An event appended together with its quota consumption, atomically (the only consumption there is). */
  readonly events: (statements: S) => AnalyticsEventRepository;
  /** Keys, with the rotation in the dialect's atomic step. */
  readonly keys: (records: Repository<ApiKeyRecord>, statements: S) => TypeOrmApiKeyRepository;
  /** The registry's writes in the dialect's atomic steps. */
  readonly models: (records: Repository<ModelRecord>, statements: S) => ModelRepository;
}

/** Every persistence port a database module binds and exports (the in-memory module binds the same). */
export const PERSISTENCE_PORTS = [
  ApiKeyRepository,
  KeyContextRepository,
  UserRepository,
  UsageRepository,
  AnalyticsEventRepository,
  AuditLog,
  ModelRepository,
  OperatorRepository,
  DatabasePing,
  KeyDirectory,
] as const;

/**
 * The module of one SQL database: TypeORM on the database's own options and
 * migrations, the portable adapters shared by every SQL database (keys,
 * users, key context, audit log, ping; all on the records and mappers of
 * `typeorm/`), and the database's own. Global, like the configuration: the
 * feature modules ask for ports, never for a database.
 */
export function sqlPersistenceModule<S extends SqlStatements>(
  module: Type<unknown>,
  options: DataSourceOptions,
  dialect: SqlDialectAdapters<S>,
): DynamicModule {
  const providers: Provider[] = [
    { provide: SqlStatements, inject: [getDataSourceToken()], useFactory: dialect.statements },
    { provide: UsageRepository, useClass: SqlUsageRepository },
    { provide: AnalyticsEventRepository, inject: [SqlStatements], useFactory: dialect.events },
    { provide: ModelRepository, inject: [getRepositoryToken(ModelRecord), SqlStatements], useFactory: dialect.models },
    { provide: ApiKeyRepository, inject: [getRepositoryToken(ApiKeyRecord), SqlStatements], useFactory: dialect.keys },
    { provide: KeyContextRepository, useClass: TypeOrmKeyContextRepository },
    { provide: KeyDirectory, useClass: SqlKeyDirectory },
    { provide: UserRepository, useClass: TypeOrmUserRepository },
    { provide: OperatorRepository, useClass: TypeOrmOperatorRepository },
    TypeOrmAuditLog,
    { provide: AuditLog, inject: [TypeOrmAuditLog], useFactory: (stored: TypeOrmAuditLog) => new LoggingAuditLog(stored) },
    { provide: DatabasePing, useClass: SqlDatabasePing },
  ];
  return {
    module,
    global: true,
    imports: [TypeOrmModule.forRoot({ ...options, retryAttempts: 0 }), TypeOrmModule.forFeature(RECORDS)],
    providers,
    exports: [...PERSISTENCE_PORTS, TypeOrmModule],
  };
}
