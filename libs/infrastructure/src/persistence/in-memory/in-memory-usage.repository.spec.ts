import { describeUsageRepositoryContract } from '../../../../../test/contracts/usage-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryUsageRepository } from './in-memory-usage.repository';

describe(InMemoryUsageRepository.name, () => {
  describeUsageRepositoryContract(makeInMemoryPersistence);
});
