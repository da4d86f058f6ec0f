import { type AuditEntry } from '@svc/domain';
import { type EntityManager, type ObjectLiteral } from 'typeorm';
import { type AuditLines } from '../../../audit/logging-audit-log';
import { type SqlStatements } from '../sql-statements';

/** What the webhook adapters share: audited changes and bounded deletes. */
export class WebhookStatements {
  constructor(
    readonly statements: SqlStatements,
    private readonly lines: AuditLines,
  ) {}

  /** A change with its audit entries in one transaction; the entries logged once it is committed (when it happened). */
  async audited(audit: readonly AuditEntry[], work: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    const changed = await this.statements.transaction(work);
    if (changed) for (const entry of audit) this.lines.stored(entry);
    return changed;
  }

  /**
   * Deletes up to `limit` rows of `table` where `where` holds (named
   * parameters; the table's own name qualifies its columns): the ids of
   * the first `limit` chosen, then those deleted while `where` still holds.
   * Answers how many it deleted.
   */
  async boundedDelete(table: string, where: string, params: ObjectLiteral, limit: number): Promise<number> {
    const dataSource = this.statements.dataSource;
    const chosen: Array<{ id: string }> = await dataSource
      .createQueryBuilder()
      .select(`${table}.id`, 'id')
      .from(table, table)
      .where(where, params)
      .limit(Math.trunc(limit))
      .getRawMany();
    if (chosen.length === 0) return 0;
    const ids = chosen.map((row) => row.id);
    const deleted = await this.statements.inTurn(() =>
      dataSource.createQueryBuilder().delete().from(table).where('id IN (:...ids)', { ids }).andWhere(where, params).execute(),
    );
    return deleted.affected ?? 0;
  }
}
