import { describeUserRepositoryContract } from '../../../../../test/contracts/user-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryUserRepository } from './in-memory-user.repository';

describe(InMemoryUserRepository.name, () => {
  describeUserRepositoryContract(makeInMemoryPersistence);
});
