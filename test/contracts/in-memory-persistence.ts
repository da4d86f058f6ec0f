import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryUsageRepository,
  InMemoryUserRepository,
} from '@svc/infrastructure/persistence/in-memory';
import { MakePersistence } from './persistence-fixture';

/** A fresh set of in-memory adapters per test. */
export const makeInMemoryPersistence: MakePersistence = async () => ({
  keys: new InMemoryApiKeyRepository(),
  users: new InMemoryUserRepository(),
  usage: new InMemoryUsageRepository(),
  audit: new InMemoryAuditLog(),
  dispose: async () => undefined,
});
