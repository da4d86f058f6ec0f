import { DynamicModule, Module } from '@nestjs/common';
import { KeyDirectory } from '@svc/application';
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
} from '@svc/domain';
import { DatabaseFaults, DatabasePing, UnitOfWork } from '@svc/application';
import { InMemoryAnalyticsEventRepository } from './in-memory-analytics-event.repository';
import { InMemoryApiKeyRepository } from './in-memory-api-key.repository';
import { InMemoryAuditLog } from './in-memory-audit-log';
import { InMemoryGeneratedSecretRepository, InMemoryLicenseSigningKeyRepository } from './in-memory-generated-secrets';
import { InMemoryKeyDirectory } from './in-memory-key-directory';
import { InMemoryKeyContextRepository } from './in-memory-key-context.repository';
import { InMemoryModelRepository } from './in-memory-model.repository';
import { InMemoryOperatorRepository } from './in-memory-operator.repository';
import { InMemoryDeviceRepository } from './in-memory-device.repository';
import { InMemoryStoredLicenseRepository } from './in-memory-stored-license.repository';
import { InMemoryUsageRepository } from './in-memory-usage.repository';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work';
import { InMemoryUserRepository } from './in-memory-user.repository';

/** Memory always answers. */
class InMemoryDatabasePing extends DatabasePing {
  async answers(): Promise<boolean> {
    return true;
  }
}

/** Memory has no driver: its failures are what they are. */
class InMemoryFaults extends DatabaseFaults {
  translate(error: unknown): unknown {
    return error;
  }
}

/**
 * Every persistence port on the in-memory adapters, bound as a database's
 * module binds them (the same tokens, global): for tests of use cases and
 * modules that want no database. Not a configurable database: nothing it
 * holds outlives the process. The adapters pass the same contract suites.
 */
@Module({})
export class InMemoryPersistenceModule {
  static forRoot(): DynamicModule {
    const audit = new InMemoryAuditLog();
    const keys = new InMemoryApiKeyRepository(audit);
    const users = new InMemoryUserRepository();
    const usage = new InMemoryUsageRepository();
    const events = new InMemoryAnalyticsEventRepository(usage);
    const providers = [
      { provide: ApiKeyRepository, useValue: keys },
      { provide: UserRepository, useValue: users },
      { provide: UsageRepository, useValue: usage },
      { provide: KeyContextRepository, useValue: new InMemoryKeyContextRepository(keys, users, usage) },
      { provide: KeyDirectory, useValue: new InMemoryKeyDirectory(keys, users, usage) },
      { provide: AnalyticsEventRepository, useValue: events },
      { provide: UnitOfWork, useValue: new InMemoryUnitOfWork(events, usage) },
      { provide: AuditLog, useValue: audit },
      { provide: ModelRepository, useValue: new InMemoryModelRepository() },
      { provide: OperatorRepository, useValue: new InMemoryOperatorRepository() },
      { provide: DeviceRepository, useValue: new InMemoryDeviceRepository(keys, audit) },
      { provide: StoredLicenseRepository, useValue: new InMemoryStoredLicenseRepository(keys) },
      { provide: DatabasePing, useValue: new InMemoryDatabasePing() },
      { provide: DatabaseFaults, useValue: new InMemoryFaults() },
      { provide: GeneratedSecretRepository, useValue: new InMemoryGeneratedSecretRepository() },
      { provide: LicenseSigningKeyRepository, useValue: new InMemoryLicenseSigningKeyRepository() },
    ];
    return { module: InMemoryPersistenceModule, global: true, providers, exports: providers.map((p) => p.provide) };
  }
}
