import { ApiKeyRecord } from './api-key.record';
import { AuditEntryRecord } from './audit-entry.record';
import { ModelRecord } from './model.record';
import { UsageCounterRecord } from './usage-counter.record';
import { UserRecord } from './user.record';

export { ApiKeyRecord, AuditEntryRecord, ModelRecord, UsageCounterRecord, UserRecord };

export const RECORDS = [UserRecord, ApiKeyRecord, UsageCounterRecord, AuditEntryRecord, ModelRecord];
