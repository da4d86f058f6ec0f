import { useState } from 'preact/hooks';

/** Previous / next over a cursor-paged list. */
export function Pager(props: { page: number; hasNext: boolean; onPrevious: () => void; onNext: () => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={props.page === 0} onClick={props.onPrevious}>
        ← Previous
      </button>
      <span>Page {props.page + 1}</span>
      <button type="button" disabled={!props.hasNext} onClick={props.onNext}>
        Next →
      </button>
    </nav>
  );
}

/** The cursors of the pages seen so far: page n is fetched with cursors[n] (null: the first). */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const page = cursors.length - 1;
  return {
    page,
    cursor: cursors[page],
    next: (cursor: string) => setCursors([...cursors, cursor]),
    previous: () => setCursors(cursors.length > 1 ? cursors.slice(0, -1) : cursors),
    reset: () => setCursors([null]),
  };
}
