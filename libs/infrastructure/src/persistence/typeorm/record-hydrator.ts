import { type DataSource, type ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/** Column types every driver hands over unchanged (absent a transformer): no conversion to call. */
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
    const record: Record<string, unknown> = new this.target();
    for (const { property, source, column } of this.columnsOf()) {
      record[property] = column === null ? row[source] : driver.prepareHydratedValue(row[source], column);
    }
    return record as R;
  }

  /**
   * A value as the driver writes it into the record's column named by
   * `property` (e.g. a Date as SQLite's UTC text), for a parameter compared
   * with that column in a prepared statement.
   */
  bind(property: keyof R & string, value: unknown): unknown {
    const column = this.dataSource.getMetadata(this.target).findColumnWithPropertyName(property);
    if (!column) throw new Error(`no column for ${property}`);
    return this.dataSource.driver.preparePersistentValue(value, column);
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
