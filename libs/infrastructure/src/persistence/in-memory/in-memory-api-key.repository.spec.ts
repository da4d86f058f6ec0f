import { describeApiKeyRepositoryContract } from '../../../../../test/contracts/api-key-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryApiKeyRepository } from './in-memory-api-key.repository';

describe(InMemoryApiKeyRepository.name, () => {
  describeApiKeyRepositoryContract(makeInMemoryPersistence);
});
