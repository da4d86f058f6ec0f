import { describeAuditLogContract } from '../contracts/audit-log.contract';
import { makeInMemoryPersistence } from '../contracts/in-memory-persistence';
import { InMemoryAuditLog } from './in-memory-audit-log';

describe(InMemoryAuditLog.name, () => {
  describeAuditLogContract(makeInMemoryPersistence);
});
