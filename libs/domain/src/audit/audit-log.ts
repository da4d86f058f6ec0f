import { type AuditAction, type AuditEntry } from './audit-entry';

/** Where a page of the log ended: the last entry's time and id (the id names its place among entries of the same time). */
export interface AuditPosition {
  readonly at: Date;
  readonly id: string;
}

export interface AuditFilter {
  readonly keyId?: string;
  readonly action?: AuditAction;
  /** Only entries whose actor has this id: an operator's id (or a key's, for the key's own calls). */
  readonly actorId?: string;
  /** Only entries after this one in the list's order (older, or as old and appended before it). */
  readonly after?: AuditPosition;
  readonly limit: number;
}

export abstract class AuditLog {
  abstract append(entry: AuditEntry): Promise<void>;
  /**
   * Newest first: by time, and entries of the same time (the same millisecond)
   * in the reverse of the order they were appended; all keys when `keyId` is
   * absent, all actions when `action` is, all actors when `actorId` is.
   */
  abstract list(filter: AuditFilter): Promise<AuditEntry[]>;
}
