import type { Database, Statement } from 'better-sqlite3';
import type { Pool } from 'pg';
import { DataSource, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * A statement of the hot path, prepared once and run many times below
 * TypeORM's query builder (which rebuilds the SQL, escapes aliases and walks
 * the metadata on every call). On SQLite it is a cached better-sqlite3
 * statement (synchronous, no round trip); on PostgreSQL a named prepared
 * statement on TypeORM's own pool (parsed and planned once per connection,
 * then one round trip per call, under the pool's statement timeout). The SQL
 * is written once with `?` placeholders; PostgreSQL gets `$1…$n`. Parameters
 * must be values both drivers bind as they are: strings, numbers, null
 * (and, on PostgreSQL only, dates and booleans).
 */
export class PreparedQuery<Row extends ObjectLiteral = Record<string, unknown>> {
  private statement?: Statement;
  private readonly postgresText: string;

  constructor(
    private readonly dataSource: DataSource,
    /** Unique per SQL text: PostgreSQL caches the prepared statement under it on each connection. */
    private readonly name: string,
    private readonly sql: string,
  ) {
    let n = 0;
    this.postgresText = sql.replace(/\?/g, () => `$${++n}`);
  }

  /** The first row, or undefined. */
  async first(params: readonly unknown[]): Promise<Row | undefined> {
    if (this.dataSource.options.type === 'postgres') return (await this.postgres(params))[0];
    return this.sqlite().get(...params) as Row | undefined;
  }

  async all(params: readonly unknown[]): Promise<Row[]> {
    if (this.dataSource.options.type === 'postgres') return this.postgres(params);
    return this.sqlite().all(...params) as Row[];
  }

  private async postgres(params: readonly unknown[]): Promise<Row[]> {
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    return (await pool.query<Row>({ name: `svc_${this.name}`, text: this.postgresText, values: params as unknown[] })).rows;
  }

  private sqlite(): Statement {
    this.statement ??= (this.dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection.prepare(this.sql);
    return this.statement;
  }
}

/** Column types both drivers hand over unchanged (absent a transformer): no conversion to call. */
const PASS_THROUGH_TYPES: readonly unknown[] = ['varchar', 'character varying', 'text', String];

interface HydratedColumn {
  readonly property: string;
  readonly source: string;
  /** The driver's conversion, or null where the driver would change nothing. */
  readonly column: ColumnMetadata | null;
}

/**
 * Turns raw rows into TypeORM records exactly as TypeORM would (its driver's
 * conversion of each column, e.g. SQLite's UTC text to a Date), without the
 * query builder. Columns are read as `<prefix><column name>`, so one row of a
 * join can hold several records (see `selectList`). Text columns, which no
 * driver converts, are copied as they are; the column list is worked out once.
 */
export class RecordHydrator<R extends ObjectLiteral> {
  private columns?: readonly HydratedColumn[];

  constructor(
    private readonly dataSource: DataSource,
    private readonly target: new () => R,
    private readonly prefix = '',
  ) {}

  /** `alias.column AS prefixcolumn, …` for every column of the record. */
  selectList(alias: string): string {
    return this.columnsOf()
      .map((c) => `${alias}.${c.source.slice(this.prefix.length)} AS ${c.source}`)
      .join(', ');
  }

  hydrate(row: ObjectLiteral): R {
    const driver = this.dataSource.driver;
    const record = new this.target() as ObjectLiteral;
    for (const { property, source, column } of this.columnsOf()) {
      record[property] = column === null ? row[source] : driver.prepareHydratedValue(row[source], column);
    }
    return record as R;
  }

  private columnsOf(): readonly HydratedColumn[] {
    this.columns ??= this.dataSource.getMetadata(this.target).columns.map((column) => ({
      property: column.propertyName,
      source: this.prefix + column.databaseName,
      column: PASS_THROUGH_TYPES.includes(column.type) && !column.transformer ? null : column,
    }));
    return this.columns;
  }
}
