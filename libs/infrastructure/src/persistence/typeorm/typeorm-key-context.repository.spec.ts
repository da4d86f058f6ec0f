import { describeAnalyticsEventRepositoryContract } from '../../../../../test/contracts/analytics-event-repository.contract';
import { describeApiKeyRepositoryContract } from '../../../../../test/contracts/api-key-repository.contract';
import { describeKeyContextRepositoryContract } from '../../../../../test/contracts/key-context-repository.contract';
import { describeModelRepositoryContract } from '../../../../../test/contracts/model-repository.contract';
import { postgresPersistence, sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { describeUsageRepositoryContract } from '../../../../../test/contracts/usage-repository.contract';
import { serverAvailableSync } from '../../../../../test/harness/services';
import { TypeOrmKeyContextRepository } from './repositories/typeorm-key-context.repository';

describe(`${TypeOrmKeyContextRepository.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeKeyContextRepositoryContract(sqlite.make);
});

/**
 * The hot path's statements are raw SQL prepared on each driver (PreparedQuery),
 * so the adapters that use them also pass their contracts on PostgreSQL.
 */
(serverAvailableSync(5432, 'PostgreSQL') ? describe : describe.skip)('the prepared-statement adapters on PostgreSQL', () => {
  const postgres = postgresPersistence();
  describeKeyContextRepositoryContract(postgres.make);
  describeApiKeyRepositoryContract(postgres.make);
  describeUsageRepositoryContract(postgres.make);
  describeAnalyticsEventRepositoryContract(postgres.make);
  describeModelRepositoryContract(postgres.make);
});
