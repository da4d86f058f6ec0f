import { describeApiKeyRepositoryContract } from '../contracts/api-key-repository.contract';
import { describeKeyChangeContract } from '../contracts/key-change.contract';
import { describeKeyRotationContract } from '../contracts/key-rotation.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryApiKeyRepository } from './in-memory-api-key.repository';

describe(InMemoryApiKeyRepository.name, () => {
  describeApiKeyRepositoryContract(makeInMemoryPersistence);
  describeKeyRotationContract(makeInMemoryPersistence);
  describeKeyChangeContract(makeInMemoryPersistence);
});
