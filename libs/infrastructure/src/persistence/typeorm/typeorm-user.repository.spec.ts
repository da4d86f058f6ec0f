import { describeUserRepositoryContract } from '../../../../../test/contracts/user-repository.contract';
import { sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { TypeOrmUserRepository } from './repositories/typeorm-user.repository';

describe(`${TypeOrmUserRepository.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeUserRepositoryContract(sqlite.make);
});
