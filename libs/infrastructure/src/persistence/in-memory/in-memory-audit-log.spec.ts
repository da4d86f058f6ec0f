import { describeAuditLogContract } from '../../../../../test/contracts/audit-log.contract';
import { makeInMemoryPersistence } from '../../../../../test/contracts/in-memory-persistence';
import { InMemoryAuditLog } from './in-memory-audit-log';

describe(InMemoryAuditLog.name, () => {
  describeAuditLogContract(makeInMemoryPersistence);
});
