import { describeKeyDirectoryContract } from '../../../../../test/contracts/key-directory.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryKeyDirectory } from './in-memory-key-directory';

describe(InMemoryKeyDirectory.name, () => {
  describeKeyDirectoryContract(makeInMemoryPersistence);
});
