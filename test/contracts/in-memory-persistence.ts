import { UsageRepository } from '@svc/domain';
import { InMemoryPersistenceModule, type InMemoryUsageRepository } from '../in-memory';
import { type MakePersistence } from './persistence-fixture';
import { openPorts } from './module-persistence';

/** A fresh set of in-memory adapters per test, bound by InMemoryPersistenceModule as a database's module binds its own. */
export const makeInMemoryPersistence: MakePersistence = async () => {
  const ports = await openPorts(InMemoryPersistenceModule.forRoot(), async (keyId, period, used) => {
    ports.context.get<UsageRepository, InMemoryUsageRepository>(UsageRepository).consumeNow(keyId, period, used, null);
  });
  return ports;
};
