import { UsageRepository } from '@svc/domain';
import { InMemoryPersistenceModule, InMemoryUsageRepository } from '@svc/infrastructure/persistence/in-memory';
import { MakePersistence } from './persistence-fixture';
import { openPorts } from './module-persistence';

/** A fresh set of in-memory adapters per test, bound by InMemoryPersistenceModule as a database's module binds its own. */
export const makeInMemoryPersistence: MakePersistence = async () => {
  let counters: InMemoryUsageRepository | undefined;
  const ports = await openPorts(InMemoryPersistenceModule.forRoot(), async (keyId, period, used) => {
    counters?.consumeNow(keyId, period, used, null);
  });
  counters = ports.context.get(UsageRepository) as InMemoryUsageRepository;
  return ports;
};
