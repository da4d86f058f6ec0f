import { describeUserRepositoryContract } from '../contracts/user-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryUserRepository } from './in-memory-user.repository';

describe(InMemoryUserRepository.name, () => {
  describeUserRepositoryContract(makeInMemoryPersistence);
});
