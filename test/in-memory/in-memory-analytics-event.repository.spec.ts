import { describeAnalyticsEventRepositoryContract } from '../contracts/analytics-event-repository.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryAnalyticsEventRepository } from './in-memory-analytics-event.repository';

describe(InMemoryAnalyticsEventRepository.name, () => {
  describeAnalyticsEventRepositoryContract(makeInMemoryPersistence);
});
