import {
  describeGeneratedSecretRepositoryContract,
  describeLicenseSigningKeyRepositoryContract,
} from '../contracts/generated-secrets.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryGeneratedSecretRepository, InMemoryLicenseSigningKeyRepository } from './in-memory-generated-secrets';

describe(InMemoryGeneratedSecretRepository.name, () => {
  describeGeneratedSecretRepositoryContract(makeInMemoryPersistence);
});

describe(InMemoryLicenseSigningKeyRepository.name, () => {
  describeLicenseSigningKeyRepositoryContract(makeInMemoryPersistence);
});
