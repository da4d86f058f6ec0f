import { type Actor, type AuditAction, type AuditEntry } from '@svc/domain';
import { AuditEntryRecord } from '../records/audit-entry.record';

type ActorColumns = Pick<AuditEntryRecord, 'actorType' | 'actorId' | 'actorName'>;

export class AuditEntryMapper {
  static toDomain(record: AuditEntryRecord): AuditEntry {
    return {
      id: record.id,
      at: record.at,
      action: record.action as AuditAction,
      keyId: record.keyId,
      reason: record.reason,
      details: record.details === null ? null : (JSON.parse(record.details) as Record<string, unknown>),
      actor: AuditEntryMapper.actorOf(record),
    };
  }

  static toRecord(entry: AuditEntry): AuditEntryRecord {
    const { actor, ...rest } = entry;
    return Object.assign(new AuditEntryRecord(), {
      ...rest,
      details: entry.details ? JSON.stringify(entry.details) : null,
      ...AuditEntryMapper.actorColumnsOf(actor),
    });
  }

  static actorColumnsOf(actor: Actor): ActorColumns {
    switch (actor.type) {
      case 'operator':
        return { actorType: actor.type, actorId: actor.operatorId, actorName: actor.name };
      case 'key':
        return { actorType: actor.type, actorId: actor.keyId, actorName: null };
      case 'cli':
        return { actorType: actor.type, actorId: null, actorName: actor.user };
      default:
        return { actorType: actor.type, actorId: null, actorName: null };
    }
  }

  static actorOf(columns: ActorColumns): Actor {
    switch (columns.actorType) {
      case 'operator':
        return { type: 'operator', operatorId: columns.actorId ?? '', name: columns.actorName ?? '' };
      case 'key':
        return { type: 'key', keyId: columns.actorId ?? '' };
      case 'cli':
        return { type: 'cli', user: columns.actorName ?? '' };
      case 'bootstrap':
        return { type: 'bootstrap' };
      default:
        return { type: 'system' };
    }
  }
}
