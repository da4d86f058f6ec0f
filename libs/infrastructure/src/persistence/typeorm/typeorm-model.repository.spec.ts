import { describeModelRepositoryContract } from '../../../../../test/contracts/model-repository.contract';
import { sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { TypeOrmModelRepository } from './repositories/typeorm-model.repository';

describe(`${TypeOrmModelRepository.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeModelRepositoryContract(sqlite.make);
});
