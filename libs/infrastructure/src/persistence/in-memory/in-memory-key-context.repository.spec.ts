import { describeKeyContextRepositoryContract } from '../../../../../test/contracts/key-context-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryKeyContextRepository } from './in-memory-key-context.repository';

describe(InMemoryKeyContextRepository.name, () => {
  describeKeyContextRepositoryContract(makeInMemoryPersistence);
});
