import { type NewOperator, type Operator, type OperatorChange, OperatorRepository, isEnabledOwner } from '@svc/domain';

/** Operators in a map, for use-case tests only; the same answers as the SQL adapter. */
export class InMemoryOperatorRepository extends OperatorRepository {
  private readonly rows = new Map<string, { operator: Operator; tokenDigest: string }>();

  async create(created: NewOperator): Promise<void> {
    if (this.rows.has(created.operator.id)) throw new Error(`duplicate operator id ${created.operator.id}`);
    this.rows.set(created.operator.id, { operator: { ...created.operator }, tokenDigest: created.tokenDigest });
  }

  async findById(id: string): Promise<Operator | null> {
    const row = this.rows.get(id);
    return row ? { ...row.operator } : null;
  }

  async findByTokenDigest(digest: string): Promise<Operator | null> {
    for (const row of this.rows.values()) if (row.tokenDigest === digest) return { ...row.operator };
    return null;
  }

  async list(): Promise<Operator[]> {
    return [...this.rows.values()]
      .map((row) => ({ ...row.operator }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  async update(id: string, change: OperatorChange, at: Date, keepAnOwner: boolean): Promise<Operator | 'last_owner' | null> {
    if (keepAnOwner && ![...this.rows.values()].some((row) => row.operator.id !== id && isEnabledOwner(row.operator))) {
      return 'last_owner';
    }
    const row = this.rows.get(id);
    if (!row) return null;
    const { disabled, ...fields } = change;
    row.operator = {
      ...row.operator,
      ...fields,
      ...(disabled === undefined ? {} : { disabledAt: disabled ? (row.operator.disabledAt ?? at) : null }),
    };
    return { ...row.operator };
  }

  async replaceToken(id: string, digest: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row) return false;
    row.tokenDigest = digest;
    return true;
  }

  async touch(id: string, at: Date): Promise<void> {
    const row = this.rows.get(id);
    if (row && (row.operator.lastUsedAt === null || row.operator.lastUsedAt < at)) row.operator = { ...row.operator, lastUsedAt: at };
  }

  async anyEnabled(): Promise<boolean> {
    return [...this.rows.values()].some((row) => row.operator.disabledAt === null);
  }
}
