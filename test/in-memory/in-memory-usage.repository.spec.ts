import { describeUsageRepositoryContract } from '../contracts/usage-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryUsageRepository } from './in-memory-usage.repository';

describe(InMemoryUsageRepository.name, () => {
  describeUsageRepositoryContract(makeInMemoryPersistence);
});
