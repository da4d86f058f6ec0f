import { AuditEntry } from './audit-entry';

export abstract class AuditLog {
  abstract append(entry: AuditEntry): Promise<void>;
  /** Newest first; all keys when `keyId` is absent. */
  abstract list(filter: { keyId?: string; limit: number }): Promise<AuditEntry[]>;
}
