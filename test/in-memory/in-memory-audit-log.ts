import { type AuditEntry, type AuditFilter, AuditLog, type AuditPosition } from '@svc/domain';

/** Where an entry stands in the list: its time, then its place in the order of appending (a SQL database's `seq`). */
interface Place {
  readonly at: number;
  readonly seq: number;
}

interface Appended extends Place {
  readonly entry: AuditEntry;
}

/**
 * The audit trail in an array, for use-case tests only. Newest first, entries
 * of the same time in the reverse of their appending (as the SQL adapter).
 */
export class InMemoryAuditLog extends AuditLog {
  private readonly entries: Appended[] = [];

  async append(entry: AuditEntry): Promise<void> {
    this.appendNow([entry]);
  }

  /**
   * All of `entries` or none, synchronously: a duplicate id (the one write
   * that can fail, as the SQL adapters' unique index) throws before any is kept.
   */
  appendNow(entries: readonly AuditEntry[]): void {
    this.refuseDuplicates(entries);
    for (const entry of entries) this.entries.push({ entry: copyOf(entry), at: entry.at.getTime(), seq: this.entries.length + 1 });
  }

  /** Throws when `entries` cannot all be appended (appendNow's check alone, for a caller's transaction). */
  refuseDuplicates(entries: readonly AuditEntry[]): void {
    const ids = new Set(this.entries.map((e) => e.entry.id));
    for (const { id } of entries) {
      if (ids.has(id)) throw new Error(`duplicate audit entry id ${id}`);
      ids.add(id);
    }
  }

  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    const after = filter.after === undefined ? undefined : this.placeOf(filter.after);
    return this.entries
      .filter(({ entry: e }) => filter.keyId === undefined || e.keyId === filter.keyId)
      .filter(({ entry: e }) => filter.action === undefined || e.action === filter.action)
      .filter(({ entry: e }) => filter.actorId === undefined || actorIdOf(e) === filter.actorId)
      .filter((e) => after === undefined || newestFirst(e, after) > 0)
      .sort(newestFirst)
      .slice(0, filter.limit)
      .map((e) => copyOf(e.entry));
  }

  /** A position's place: its entry's, or before every entry of its time when no entry has its id. */
  private placeOf(position: AuditPosition): Place {
    return { at: position.at.getTime(), seq: this.entries.find((e) => e.entry.id === position.id)?.seq ?? 0 };
  }
}

/** The id an entry's actor is filtered by: an operator's, or a key's for its own calls. */
function actorIdOf(entry: AuditEntry): string | null {
  return entry.actor.type === 'operator' ? entry.actor.operatorId : entry.actor.type === 'key' ? entry.actor.keyId : null;
}

/** The list's order: time, then the order of appending, both descending. */
function newestFirst(a: Place, b: Place): number {
  return b.at - a.at || b.seq - a.seq;
}

function copyOf(entry: AuditEntry): AuditEntry {
  return {
    ...entry,
    at: new Date(entry.at.getTime()),
    actor: { ...entry.actor },
    details: entry.details === null ? null : (JSON.parse(JSON.stringify(entry.details)) as Record<string, unknown>),
  };
}
