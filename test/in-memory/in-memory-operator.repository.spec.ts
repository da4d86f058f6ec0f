import { describeOperatorRepositoryContract } from '../contracts/operator-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryOperatorRepository } from './in-memory-operator.repository';

describe(InMemoryOperatorRepository.name, () => {
  describeOperatorRepositoryContract(makeInMemoryPersistence);
});
