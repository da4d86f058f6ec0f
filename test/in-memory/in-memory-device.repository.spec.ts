import { describeDeviceRepositoryContract } from '../contracts/device-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryDeviceRepository } from './in-memory-device.repository';

describe(InMemoryDeviceRepository.name, () => {
  describeDeviceRepositoryContract(makeInMemoryPersistence);
});
