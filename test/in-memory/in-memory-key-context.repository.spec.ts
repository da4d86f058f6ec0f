import { describeKeyContextRepositoryContract } from '../contracts/key-context-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryKeyContextRepository } from './in-memory-key-context.repository';

describe(InMemoryKeyContextRepository.name, () => {
  describeKeyContextRepositoryContract(makeInMemoryPersistence);
});
