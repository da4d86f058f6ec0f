import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig, ConfigError, DatabaseConfig } from '@svc/config';
import type { DataSourceOptions } from 'typeorm';
import {
  AnalyticsEventRepository,
  ApiKeyFormat,
  ApiKeyRepository,
  AuditLog,
  Clock,
  IdGenerator,
  KeyContextRepository,
  ModelRepository,
  ModelStore,
  RandomSource,
  SecretHasher,
  TierCatalog,
  UsageRepository,
  UserRepository,
} from '@svc/domain';
import { CryptoRandomSource, RandomIdGenerator } from './crypto/random-id-generator';
import { Sha256SecretHasher } from './crypto/sha256-secret-hasher';
import { sqliteDataSourceOptions } from './persistence/sqlite/sqlite-data-source';
import { postgresDataSourceOptions } from './persistence/postgres/postgres-data-source';
import { mysqlDataSourceOptions } from './persistence/mysql/mysql-data-source';
import { RECORDS } from './persistence/typeorm/records';
import { TypeOrmApiKeyRepository } from './persistence/typeorm/repositories/typeorm-api-key.repository';
import { TypeOrmKeyContextRepository } from './persistence/typeorm/repositories/typeorm-key-context.repository';
import { TypeOrmAuditLog } from './persistence/typeorm/repositories/typeorm-audit-log';
import { TypeOrmUsageRepository } from './persistence/typeorm/repositories/typeorm-usage.repository';
import { TypeOrmAnalyticsEventRepository } from './persistence/typeorm/repositories/typeorm-analytics-event.repository';
import { TypeOrmUserRepository } from './persistence/typeorm/repositories/typeorm-user.repository';
import { TypeOrmModelRepository } from './persistence/typeorm/repositories/typeorm-model.repository';
import { LocalModelStore } from './model-store/local-model-store';
import { RepoTokenIssuer } from '@svc/application';
import { GithubAppRepoTokenIssuer } from './repo-tokens/github-app-repo-token-issuer';
import { NotConfiguredRepoTokenIssuer } from './repo-tokens/not-configured-repo-token-issuer';
import { StaticRepoTokenIssuer } from './repo-tokens/static-repo-token-issuer';
import { SystemClock } from './time/system-clock';
import { LoggingAuditLog } from './audit/logging-audit-log';
import { InMemoryRateCounter } from './rate-limit/in-memory-rate-counter';
import { RedisRateCounter } from './rate-limit/redis-rate-counter';
import { DatabasePing } from './persistence/typeorm/database-ping';
import { RateCounter } from '@svc/application';

export interface InfrastructureOverrides {
  /** A controllable clock for tests; the system clock otherwise. */
  readonly clock?: Clock;
}

/**
 * The one place that binds every port to its adapter, from validated config
 * (STYLE 5). Feature modules never ask which database is running.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, overrides: InfrastructureOverrides = {}): DynamicModule {
    const catalog = tierCatalogOf(config);
    const providers: Provider[] = [
      { provide: TierCatalog, useValue: catalog },
      { provide: ApiKeyFormat, useValue: new ApiKeyFormat(config.keys.prefix) },
      { provide: SecretHasher, useValue: new Sha256SecretHasher(config.keys.digestPepper) },
      { provide: IdGenerator, useValue: new RandomIdGenerator() },
      { provide: RandomSource, useValue: new CryptoRandomSource() },
      { provide: Clock, useValue: overrides.clock ?? new SystemClock() },
      {
        provide: RateCounter,
        inject: [Clock],
        useFactory: (clock: Clock) =>
          config.redisUrl
            ? new RedisRateCounter(config.redisUrl, config.rateLimit.redisKeyPrefix, new InMemoryRateCounter(clock))
            : new InMemoryRateCounter(clock),
      },
      { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
      { provide: KeyContextRepository, useClass: TypeOrmKeyContextRepository },
      { provide: UserRepository, useClass: TypeOrmUserRepository },
      { provide: UsageRepository, useClass: TypeOrmUsageRepository },
      { provide: AnalyticsEventRepository, useClass: TypeOrmAnalyticsEventRepository },
      { provide: TypeOrmAuditLog, useClass: TypeOrmAuditLog },
      { provide: AuditLog, inject: [TypeOrmAuditLog], useFactory: (stored: TypeOrmAuditLog) => new LoggingAuditLog(stored) },
      { provide: ModelRepository, useClass: TypeOrmModelRepository },
      { provide: ModelStore, useValue: new LocalModelStore(config.models.storeDir) },
      { provide: DatabasePing, useClass: DatabasePing },
      repoTokenIssuerOf(config),
    ];
    return {
      module: InfrastructureModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptionsOf(config.database), retryAttempts: 0 }), TypeOrmModule.forFeature(RECORDS)],
      providers,
      exports: [...providers.map((p) => (p as { provide: unknown }).provide as never), TypeOrmModule],
    };
  }
}

/**
 * The installer's token source (CONTRACT 6): the GitHub App when configured,
 * else the static token, else "not configured". The App key is parsed here, so
 * a bad key stops start-up with a ConfigError. One instance: it holds the cache.
 */
function repoTokenIssuerOf(config: AppConfig): Provider {
  const { githubApp, staticToken, staticTokenExpiresAt } = config.installer;
  if (githubApp) {
    const signingKey = GithubAppRepoTokenIssuer.signingKeyOf(githubApp.privateKey);
    return {
      provide: RepoTokenIssuer,
      useFactory: (clock: Clock) => new GithubAppRepoTokenIssuer(githubApp, signingKey, clock),
      inject: [Clock],
    };
  }
  if (staticToken) {
    return {
      provide: RepoTokenIssuer,
      useFactory: (clock: Clock) => new StaticRepoTokenIssuer(staticToken, staticTokenExpiresAt, clock),
      inject: [Clock],
    };
  }
  return { provide: RepoTokenIssuer, useValue: new NotConfiguredRepoTokenIssuer() };
}

function tierCatalogOf(config: AppConfig): TierCatalog {
  try {
    return TierCatalog.fromSource(config.tiers);
  } catch (error) {
    throw new ConfigError([`TIERS_FILE ${(error as Error).message}`]);
  }
}

function dataSourceOptionsOf(database: DatabaseConfig): DataSourceOptions {
  switch (database.kind) {
    case 'sqlite':
      return sqliteDataSourceOptions(database);
    case 'postgres':
      return postgresDataSourceOptions(database);
    case 'mysql':
      return mysqlDataSourceOptions(database);
  }
}
