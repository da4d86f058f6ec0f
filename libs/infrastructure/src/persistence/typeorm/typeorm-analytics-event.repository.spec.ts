import { describeAnalyticsEventRepositoryContract } from '../../../../../test/contracts/analytics-event-repository.contract';
import { sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { TypeOrmAnalyticsEventRepository } from './repositories/typeorm-analytics-event.repository';

describe(`${TypeOrmAnalyticsEventRepository.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeAnalyticsEventRepositoryContract(sqlite.make);
});
