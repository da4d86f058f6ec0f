import { InMemoryPersistenceModule } from '@svc/infrastructure/persistence/in-memory';
import { MakePersistence } from './persistence-fixture';
import { openPorts } from './module-persistence';

/** A fresh set of in-memory adapters per test, bound by InMemoryPersistenceModule as a database's module binds its own. */
export const makeInMemoryPersistence: MakePersistence = () => openPorts(InMemoryPersistenceModule.forRoot());
