import { type AuditEntry } from '@svc/domain';
import { type AuditLines } from '../../../audit/logging-audit-log';
import { type PreparedStatement, type SqlStatements, type WriteScript } from '../sql-statements';

/** A DELETE of at most `limit` rows of `table` where `where` holds (a database may say it its own way). */
export type BoundedDeleteSql = (table: string, where: string, limit: number) => string;

/** The portable bounded DELETE: the ids chosen by a limited subquery. */
export const boundedDeleteSql: BoundedDeleteSql = (table, where, limit) =>
  `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT ${limit})`;

/** What the webhook adapters share: their prepared statements, audited changes and bounded deletes. */
export class WebhookStatements {
  private readonly prepared = new Map<string, PreparedStatement>();

  constructor(
    readonly statements: SqlStatements,
    private readonly lines: AuditLines,
    private readonly deleteSql: BoundedDeleteSql = boundedDeleteSql,
  ) {}

  /** The statement of `sql`, prepared once under `name`. */
  statement(name: string, sql: string): PreparedStatement {
    let found = this.prepared.get(name);
    if (!found) this.prepared.set(name, (found = this.statements.prepare(name, sql)));
    return found;
  }

  /** A change with its audit entries in one transaction; the entries logged once it is committed (when it happened). */
  async audited(audit: readonly AuditEntry[], script: () => WriteScript<boolean>): Promise<boolean> {
    const changed = await this.statements.writeTogether(script);
    if (changed) for (const entry of audit) this.lines.stored(entry);
    return changed;
  }

  /** Deletes up to `limit` rows of `table` where `where` holds, in one statement; answers how many. */
  async boundedDelete(table: string, where: string, params: readonly unknown[], limit: number): Promise<number> {
    const write = { sql: this.deleteSql(table, where, Math.trunc(limit)), params };
    return this.statements.writeTogether(function* (): WriteScript<number> {
      return yield write;
    });
  }
}
