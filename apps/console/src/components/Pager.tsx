import { useQuery } from '../router';

/**
 * Previous / next over a cursor-paged list, the pages seen kept in the address: `name` holds the
 * cursors that led to this page, comma-separated (cursors are base64url: no commas), so the page
 * number, Back and Forward and a copied address all work. Returns the current cursor and the pager.
 */
export function useUrlPages(name = 'cursor') {
  const { query, set } = useQuery();
  const trail = (query[name] ?? '').split(',').filter((c) => c !== '');
  const go = (next: string[]) => set({ ...query, [name]: next.join(',') || undefined });
  return {
    cursor: trail[trail.length - 1] ?? null,
    page: trail.length,
    next: (cursor: string) => go([...trail, cursor]),
    previous: () => go(trail.slice(0, -1)),
  };
}

/** The pager's buttons over a `useUrlPages` trail; `nextCursor` (null on the last page) from the page shown; `busy` while a page loads. */
export function Pager(props: { label: string; pages: ReturnType<typeof useUrlPages>; nextCursor: string | null; busy: boolean }) {
  const { pages, nextCursor } = props;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" disabled={pages.page === 0 || props.busy} onClick={pages.previous}>
        ← Previous
      </button>
      <span>Page {pages.page + 1}</span>
      <button type="button" disabled={nextCursor === null || props.busy} onClick={() => nextCursor !== null && pages.next(nextCursor)}>
        Next →
      </button>
    </nav>
  );
}
