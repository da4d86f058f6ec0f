import { paths } from '../router';
import type { Column } from './DataTable';

/** A table column naming a key by its prefix, linked to the key's page. */
export function keyLinkColumn<R extends { key_id: string; prefix: string }>(header: string): Column<R> {
  return {
    header,
    cell: (k) => (
      <a href={paths.key(k.key_id)}>
        <code>{k.prefix}…</code>
      </a>
    ),
  };
}
