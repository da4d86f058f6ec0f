import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { describeStoredLicenseRepositoryContract } from '../contracts/stored-license.contract';
import { InMemoryStoredLicenseRepository } from './in-memory-stored-license.repository';

describe(InMemoryStoredLicenseRepository.name, () => {
  describeStoredLicenseRepositoryContract(makeInMemoryPersistence);
});
