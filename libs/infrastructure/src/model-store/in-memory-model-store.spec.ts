import { describeModelStoreContract } from '../../../../test/contracts/model-store.contract';
import { InMemoryModelStore } from './in-memory-model-store';

describe(InMemoryModelStore.name, () => {
  describeModelStoreContract(async () => {
    const store = new InMemoryModelStore();
    return { store, names: async () => store.paths(), dispose: async () => undefined };
  });
});
