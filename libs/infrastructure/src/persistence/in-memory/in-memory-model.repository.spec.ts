import { describeModelRepositoryContract } from '../../../../../test/contracts/model-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryModelRepository } from './in-memory-model.repository';

describe(InMemoryModelRepository.name, () => {
  describeModelRepositoryContract(makeInMemoryPersistence);
});
