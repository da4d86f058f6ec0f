import { describeAuditLogContract } from '../../../../../test/contracts/audit-log.contract';
import { sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { TypeOrmAuditLog } from './repositories/typeorm-audit-log';

describe(`${TypeOrmAuditLog.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeAuditLogContract(sqlite.make);
});
