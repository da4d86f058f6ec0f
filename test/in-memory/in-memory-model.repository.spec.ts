import { describeModelRepositoryContract } from '../contracts/model-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryModelRepository } from './in-memory-model.repository';

describe(InMemoryModelRepository.name, () => {
  describeModelRepositoryContract(makeInMemoryPersistence);
});
