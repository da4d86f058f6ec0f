import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig, ConfigError } from '@svc/config';
import {
  ApiKeyFormat,
  ApiKeyRepository,
  AuditLog,
  Clock,
  IdGenerator,
  RandomSource,
  SecretHasher,
  TierCatalog,
  UsageRepository,
  UserRepository,
} from '@svc/domain';
import { CryptoRandomSource, RandomIdGenerator } from './crypto/random-id-generator';
import { Sha256SecretHasher } from './crypto/sha256-secret-hasher';
import { dataSourceOptionsFor } from './persistence/typeorm/data-source-options';
import { RECORDS } from './persistence/typeorm/records';
import { TypeOrmApiKeyRepository } from './persistence/typeorm/repositories/typeorm-api-key.repository';
import { TypeOrmAuditLog } from './persistence/typeorm/repositories/typeorm-audit-log';
import { TypeOrmUsageRepository } from './persistence/typeorm/repositories/typeorm-usage.repository';
import { TypeOrmUserRepository } from './persistence/typeorm/repositories/typeorm-user.repository';
import { SystemClock } from './time/system-clock';

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
      { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
      { provide: UserRepository, useClass: TypeOrmUserRepository },
      { provide: UsageRepository, useClass: TypeOrmUsageRepository },
      { provide: AuditLog, useClass: TypeOrmAuditLog },
    ];
    return {
      module: InfrastructureModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptionsFor(config.database), retryAttempts: 0 }), TypeOrmModule.forFeature(RECORDS)],
      providers,
      exports: [...providers.map((p) => (p as { provide: unknown }).provide as never), TypeOrmModule],
    };
  }
}

function tierCatalogOf(config: AppConfig): TierCatalog {
  try {
    return TierCatalog.fromSource(config.tiers);
  } catch (error) {
    throw new ConfigError([`TIERS_FILE ${(error as Error).message}`]);
  }
}
