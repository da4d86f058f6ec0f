import { describeAnalyticsEventRepositoryContract } from '../../../../../test/contracts/analytics-event-repository.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryAnalyticsEventRepository } from './in-memory-analytics-event.repository';

describe(InMemoryAnalyticsEventRepository.name, () => {
  describeAnalyticsEventRepositoryContract(makeInMemoryPersistence);
});
