import { type AuditEntry, type AuditFilter, AuditLog } from '@svc/domain';

/** The audit trail in an array, for use-case tests only. Newest first, ties by id (as the SQL adapter). */
export class InMemoryAuditLog extends AuditLog {
  private readonly entries: AuditEntry[] = [];

  async append(entry: AuditEntry): Promise<void> {
    if (this.entries.some((e) => e.id === entry.id)) throw new Error(`duplicate audit entry id ${entry.id}`);
    this.entries.push(copyOf(entry));
  }

  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    const after = filter.after;
    return this.entries
      .filter((e) => filter.keyId === undefined || e.keyId === filter.keyId)
      .filter((e) => filter.action === undefined || e.action === filter.action)
      .filter((e) => filter.actorId === undefined || actorIdOf(e) === filter.actorId)
      .filter((e) => after === undefined || newestFirst(e, after) > 0)
      .sort(newestFirst)
      .slice(0, filter.limit)
      .map(copyOf);
  }
}

/** The id an entry's actor is filtered by: an operator's, or a key's for its own calls. */
function actorIdOf(entry: AuditEntry): string | null {
  return entry.actor.type === 'operator' ? entry.actor.operatorId : entry.actor.type === 'key' ? entry.actor.keyId : null;
}

/** The list's order: time, then id, both descending. */
function newestFirst(a: { at: Date; id: string }, b: { at: Date; id: string }): number {
  return b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function copyOf(entry: AuditEntry): AuditEntry {
  return {
    ...entry,
    at: new Date(entry.at.getTime()),
    actor: { ...entry.actor },
    details: entry.details === null ? null : (JSON.parse(JSON.stringify(entry.details)) as Record<string, unknown>),
  };
}
