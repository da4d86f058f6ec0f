import { describeKeyDirectoryContract } from '../contracts/key-directory.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryKeyDirectory } from './in-memory-key-directory';

describe(InMemoryKeyDirectory.name, () => {
  describeKeyDirectoryContract(makeInMemoryPersistence);
});
