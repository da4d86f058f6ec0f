import { type AuditAction, type AuditEntry } from '@svc/domain';
import { AuditEntryRecord } from '../records/audit-entry.record';

export class AuditEntryMapper {
  static toDomain(record: AuditEntryRecord): AuditEntry {
    return {
      id: record.id,
      at: record.at,
      action: record.action as AuditAction,
      keyId: record.keyId,
      reason: record.reason,
      details: record.details === null ? null : (JSON.parse(record.details) as Record<string, unknown>),
    };
  }

  static toRecord(entry: AuditEntry): AuditEntryRecord {
    return Object.assign(new AuditEntryRecord(), { ...entry, details: entry.details ? JSON.stringify(entry.details) : null });
  }
}
