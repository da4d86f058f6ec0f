import { type DataSource, type ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * The other way of RecordHydrator: a record's column values as the driver
 * would write them (its conversion of each column, e.g. a Date to SQLite's
 * UTC text), for the few writes made below TypeORM's repository (a
 * database's atomic step on its own statements). Columns the database
 * generates (an audit entry's `seq`) are left to it.
 */
export class RecordValues<R extends ObjectLiteral> {
  private columns?: readonly ColumnMetadata[];

  constructor(
    private readonly dataSource: DataSource,
    private readonly target: new () => R,
  ) {}

  /** Every column's name, in the order `of` answers the values. */
  columnNames(): string[] {
    return this.columnsOf().map((c) => c.databaseName);
  }

  /** `INSERT INTO <table> (columns) VALUES (?, …)`, with `?` placeholders in `columnNames` order. */
  insertSql(): string {
    const table = this.dataSource.getMetadata(this.target).tableName;
    const names = this.columnNames();
    return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
  }

  /** The record's values in `columnNames` order (or of the named columns only, in the order given). */
  of(record: R, only?: readonly string[]): unknown[] {
    const driver = this.dataSource.driver;
    const columns = only ? only.map((name) => this.column(name)) : this.columnsOf();
    return columns.map((column): unknown => {
      const value: unknown = (record as ObjectLiteral)[column.propertyName];
      return driver.preparePersistentValue(value === undefined ? null : value, column);
    });
  }

  /** `column = ?, …` for the properties `partial` sets (undefined ones left out), and their values as the driver writes them. */
  assignments(partial: Partial<R>): { sql: string; params: unknown[] } {
    const metadata = this.dataSource.getMetadata(this.target);
    const driver = this.dataSource.driver;
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [property, value] of Object.entries(partial)) {
      if (value === undefined) continue;
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`no column for ${property}`);
      sets.push(`${column.databaseName} = ?`);
      params.push(driver.preparePersistentValue(value, column));
    }
    return { sql: sets.join(', '), params };
  }

  private column(name: string): ColumnMetadata {
    const found = this.columnsOf().find((c) => c.databaseName === name);
    if (!found) throw new Error(`no column ${name}`);
    return found;
  }

  private columnsOf(): readonly ColumnMetadata[] {
    this.columns ??= this.dataSource.getMetadata(this.target).columns.filter((c) => !c.isGenerated);
    return this.columns;
  }
}
