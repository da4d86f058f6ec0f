import { type DynamicModule, type FactoryProvider, type Provider, type Type } from '@nestjs/common';
import { DatabaseFaults, DatabasePing, KeyDirectory, OutboxSignal, SecretsAtRest, UnitOfWork } from '@svc/application';
import { TypeOrmModule, getDataSourceToken, getRepositoryToken } from '@nestjs/typeorm';
import {
  AnalyticsEventRepository,
  ApiKeyRepository,
  AuditLog,
  GeneratedSecretRepository,
  KeyContextRepository,
  LicenseSigningKeyRepository,
  ModelRepository,
  OperatorRepository,
  DeviceRepository,
  StoredLicenseRepository,
  UsageRepository,
  UserRepository,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
  WebhookOutbox,
} from '@svc/domain';
import { type DataSource, type DataSourceOptions, type Repository } from 'typeorm';
import { AuditLines, LoggingAuditLog } from '../../audit/logging-audit-log';
import { SecretsCipher } from '../../crypto/secrets-cipher';
import { type DriverFaults, DriverFaultTranslator } from '../driver-faults';
import { ApiKeyRecord, DeviceRecord, LicenseDeviceLimitRecord, ModelRecord, RECORDS } from './records';
import { TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';
import { TypeOrmAuditLog } from './repositories/typeorm-audit-log';
import { TypeOrmGeneratedSecretRepository } from './repositories/typeorm-generated-secret.repository';
import { TypeOrmOperatorRepository } from './repositories/typeorm-operator.repository';
import { TypeOrmDeviceRepository } from './repositories/typeorm-device.repository';
import { TypeOrmKeyContextRepository } from './repositories/typeorm-key-context.repository';
import { TypeOrmLicenseSigningKeyRepository } from './repositories/typeorm-license-signing-key.repository';
import { TypeOrmUserRepository } from './repositories/typeorm-user.repository';
import { SqlKeyDirectory } from './repositories/sql-key-directory';
import { SqlStoredLicenseRepository } from './repositories/sql-stored-license.repository';
import { SqlUsageRepository } from './repositories/sql-usage.repository';
import { SqlDatabasePing } from './sql-database-ping';
import { SqlSecretsAtRest } from './sql-secrets-at-rest';
import { SqlStatements } from './sql-statements';
import { OutboxBell, OutboxWrites } from './outbox';
import { SqlWebhookEndpointRepository } from './repositories/sql-webhook-endpoint.repository';
import { SqlWebhookDeliveryQueue } from './repositories/sql-webhook-delivery-queue';
import { SqlWebhookOutbox } from './repositories/sql-webhook-outbox';
import { WebhookStatements } from './repositories/webhook-statements';
import { SqlModelRepository } from './repositories/sql-model.repository';
import { openMigratedDataSource } from './migrated-data-source';

/** What a SQL database's module supplies: its statements, and its own adapters where its dialect differs. */
export interface SqlDialectAdapters<S extends SqlStatements, E extends AnalyticsEventRepository> {
  /** Which of its driver's errors mean the database is unavailable, and the retry hint (its DatabaseFaults). */
  readonly faults: DriverFaults;
  readonly statements: (dataSource: DataSource) => S;
  /** An event appended together with its quota consumption, atomically (the only consumption there is). */
  readonly events: (statements: S) => E;
  /** A unit of work: one transaction of the database, in which its events and the outbox's writes run. */
  readonly unitOfWork: (statements: S, events: E, writes: OutboxWrites, bell: OutboxBell) => UnitOfWork;
}

/**
 * Every persistence port a database module binds and exports (the tests' in-memory module, test/in-memory/, binds the same,
 * but for the webhook ports: the outbox and its dispatcher exist on the SQL databases only).
 */
export const PERSISTENCE_PORTS = [
  ApiKeyRepository,
  KeyContextRepository,
  UserRepository,
  UsageRepository,
  AnalyticsEventRepository,
  AuditLog,
  ModelRepository,
  OperatorRepository,
  DeviceRepository,
  StoredLicenseRepository,
  DatabasePing,
  KeyDirectory,
  GeneratedSecretRepository,
  LicenseSigningKeyRepository,
  UnitOfWork,
  WebhookEndpointRepository,
  WebhookOutbox,
  WebhookDeliveryQueue,
] as const;

type Port = (typeof PERSISTENCE_PORTS)[number];

/**
 * The module of one SQL database: TypeORM on the database's own options and
 * migrations (each one applied at start-up logged), the portable adapters shared by every SQL database (keys,
 * users, key context, audit log, ping; all on the records and mappers of
 * `typeorm/`), and the database's own, and its DatabaseFaults (the database's DriverFaults: which
 * of its driver's errors mean it is unavailable), which the HTTP filter and the CLI apply to a
 * failure before they report it. Global, like the configuration: the
 * feature modules ask for ports, never for a database. The secrets the adapters keep are sealed
 * by `secrets` (SECRETS_KEY), checked at start-up by SecretsAtRest.
 */
export function sqlPersistenceModule<S extends SqlStatements, E extends AnalyticsEventRepository>(
  module: Type<unknown>,
  options: DataSourceOptions,
  dialect: SqlDialectAdapters<S, E>,
  secrets: SecretsCipher,
): DynamicModule {
  const adapters: ReadonlyArray<{ provide: Port } & ({ useClass: Type<object> } | Omit<FactoryProvider<object>, 'provide'>)> = [
    { provide: UsageRepository, useClass: SqlUsageRepository },
    { provide: AnalyticsEventRepository, inject: [SqlStatements], useFactory: dialect.events },
    {
      provide: UnitOfWork,
      inject: [SqlStatements, AnalyticsEventRepository, getDataSourceToken(), OutboxBell],
      useFactory: (statements: S, events: E, dataSource: DataSource, bell: OutboxBell) =>
        dialect.unitOfWork(statements, events, new OutboxWrites(dataSource), bell),
    },
    {
      provide: ModelRepository,
      inject: [getRepositoryToken(ModelRecord), SqlStatements, OutboxBell],
      useFactory: (records: Repository<ModelRecord>, statements: S, bell: OutboxBell) =>
        new SqlModelRepository(records, statements, bell, dialect.faults),
    },
    {
      provide: ApiKeyRepository,
      inject: [getRepositoryToken(ApiKeyRecord), SqlStatements, AuditLines, OutboxBell],
      useFactory: (records: Repository<ApiKeyRecord>, statements: S, lines: AuditLines, bell: OutboxBell) =>
        new TypeOrmApiKeyRepository(records, statements, lines, bell),
    },
    {
      provide: WebhookEndpointRepository,
      inject: [getDataSourceToken(), WebhookStatements, SecretsCipher],
      useFactory: (dataSource: DataSource, sql: WebhookStatements, cipher: SecretsCipher) =>
        new SqlWebhookEndpointRepository(dataSource, sql, cipher),
    },
    {
      provide: WebhookOutbox,
      inject: [getDataSourceToken(), WebhookStatements, OutboxBell, WebhookEndpointRepository],
      useFactory: (dataSource: DataSource, sql: WebhookStatements, bell: OutboxBell, endpoints: WebhookEndpointRepository) =>
        new SqlWebhookOutbox(dataSource, sql, bell, endpoints),
    },
    {
      provide: WebhookDeliveryQueue,
      inject: [getDataSourceToken(), WebhookStatements, OutboxBell, SecretsCipher],
      useFactory: (dataSource: DataSource, sql: WebhookStatements, bell: OutboxBell, cipher: SecretsCipher) =>
        new SqlWebhookDeliveryQueue(dataSource, sql, bell, cipher),
    },
    { provide: KeyContextRepository, useClass: TypeOrmKeyContextRepository },
    { provide: KeyDirectory, useClass: SqlKeyDirectory },
    { provide: UserRepository, useClass: TypeOrmUserRepository },
    { provide: OperatorRepository, useClass: TypeOrmOperatorRepository },
    {
      provide: DeviceRepository,
      inject: [getRepositoryToken(DeviceRecord), getRepositoryToken(LicenseDeviceLimitRecord), SqlStatements, AuditLines, OutboxBell],
      useFactory: (
        records: Repository<DeviceRecord>,
        limits: Repository<LicenseDeviceLimitRecord>,
        statements: S,
        lines: AuditLines,
        bell: OutboxBell,
      ) => new TypeOrmDeviceRepository(records, limits, statements, lines, bell),
    },
    { provide: StoredLicenseRepository, useClass: SqlStoredLicenseRepository },
    {
      provide: AuditLog,
      inject: [TypeOrmAuditLog, AuditLines],
      useFactory: (stored: TypeOrmAuditLog, lines: AuditLines) => new LoggingAuditLog(stored, lines),
    },
    { provide: DatabasePing, useClass: SqlDatabasePing },
    { provide: GeneratedSecretRepository, useClass: TypeOrmGeneratedSecretRepository },
    { provide: LicenseSigningKeyRepository, useClass: TypeOrmLicenseSigningKeyRepository },
  ];
  const providers: Provider[] = [
    { provide: SqlStatements, inject: [getDataSourceToken()], useFactory: dialect.statements },
    { provide: SecretsCipher, useValue: secrets },
    {
      provide: SecretsAtRest,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) => new SqlSecretsAtRest(dataSource, secrets),
    },
    TypeOrmAuditLog,
    AuditLines,
    OutboxBell,
    { provide: OutboxSignal, useExisting: OutboxBell },
    {
      provide: WebhookStatements,
      inject: [SqlStatements, AuditLines],
      useFactory: (statements: S, lines: AuditLines) => new WebhookStatements(statements, lines),
    },
    { provide: DatabaseFaults, useValue: new DriverFaultTranslator(dialect.faults) },
    ...adapters,
  ];
  return {
    module,
    global: true,
    imports: [
      // the database's options as they are; opened by openMigratedDataSource, which applies the
      // migrations (migrationsRun) itself to log each one applied
      TypeOrmModule.forRootAsync({
        useFactory: () => ({ ...options, retryAttempts: 0 }),
        dataSourceFactory: (resolved) => openMigratedDataSource(resolved ?? options),
      }),
      TypeOrmModule.forFeature(RECORDS),
    ],
    providers,
    exports: [...PERSISTENCE_PORTS, DatabaseFaults, SecretsAtRest, OutboxSignal, TypeOrmModule],
  };
}
