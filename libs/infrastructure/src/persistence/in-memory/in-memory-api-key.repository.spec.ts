import { describeApiKeyRepositoryContract } from '../../../../../test/contracts/api-key-repository.contract';
import { describeKeyChangeContract } from '../../../../../test/contracts/key-change.contract';
import { describeKeyRotationContract } from '../../../../../test/contracts/key-rotation.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryApiKeyRepository } from './in-memory-api-key.repository';

describe(InMemoryApiKeyRepository.name, () => {
  describeApiKeyRepositoryContract(makeInMemoryPersistence);
  describeKeyRotationContract(makeInMemoryPersistence);
  describeKeyChangeContract(makeInMemoryPersistence);
});
