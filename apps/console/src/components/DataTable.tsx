import type { ComponentChildren } from 'preact';

export interface Column<R> {
  readonly header: ComponentChildren;
  readonly cell: (row: R) => ComponentChildren;
  /** Right-aligned numbers. */
  readonly num?: boolean;
  readonly class?: string;
}

/** A table of rows (text only: cells are components, never markup), or `empty` when there are none. */
export function DataTable<R>(props: {
  rows: readonly R[];
  columns: ReadonlyArray<Column<R>>;
  rowKey: (row: R) => string;
  rowAttributes?: (row: R) => Record<string, string>;
  empty: string;
  class?: string;
  caption?: string;
}) {
  if (props.rows.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <div class="table-wrap">
      <table class={props.class}>
        {props.caption && <caption class="visually-hidden">{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns.map((c, i) => (
              <th key={i} scope="col" class={c.num ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} {...(props.rowAttributes?.(row) ?? {})}>
              {props.columns.map((c, i) => (
                <td key={i} class={[c.num ? 'num' : '', c.class ?? ''].join(' ').trim() || undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
