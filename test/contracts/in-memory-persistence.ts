import {
  InMemoryAnalyticsEventRepository,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryKeyContextRepository,
  InMemoryModelRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
} from '@svc/infrastructure/persistence/in-memory';
import { MakePersistence } from './persistence-fixture';

/** A fresh set of in-memory adapters per test. */
export const makeInMemoryPersistence: MakePersistence = async () => {
  const keys = new InMemoryApiKeyRepository();
  const users = new InMemoryUserRepository();
  const usage = new InMemoryUsageRepository();
  return {
    keys,
    users,
    usage,
    audit: new InMemoryAuditLog(),
    contexts: new InMemoryKeyContextRepository(keys, users, usage),
    events: new InMemoryAnalyticsEventRepository(usage),
    models: new InMemoryModelRepository(),
    dispose: async () => undefined,
  };
};
