import { ApiKeyRecord } from './api-key.record';
import { AuditEntryRecord } from './audit-entry.record';
import { UsageCounterRecord } from './usage-counter.record';
import { UserRecord } from './user.record';

export { ApiKeyRecord, AuditEntryRecord, UsageCounterRecord, UserRecord };

export const RECORDS = [UserRecord, ApiKeyRecord, UsageCounterRecord, AuditEntryRecord];
