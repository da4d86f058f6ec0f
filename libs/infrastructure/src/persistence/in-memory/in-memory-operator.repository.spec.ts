import { describeOperatorRepositoryContract } from '../../../../../test/contracts/operator-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryOperatorRepository } from './in-memory-operator.repository';

describe(InMemoryOperatorRepository.name, () => {
  describeOperatorRepositoryContract(makeInMemoryPersistence);
});
