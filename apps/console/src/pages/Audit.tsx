import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS, type AuditPage, call } from '../api';
import { AuditTable } from '../components/AuditTable';
import { ErrorNote } from '../components/ErrorNote';
import { Pager, useCursorPages } from '../components/Pager';
import { useLoad } from '../load';

const PAGE_SIZE = 50;

/** The whole audit log, newest first, filtered by action, paged. */
export function Audit() {
  const [action, setAction] = useState('');
  const pages = useCursorPages();
  const { data, error, loading } = useLoad(
    () => call<AuditPage>('GET', '/audit', { query: { action, limit: PAGE_SIZE, cursor: pages.cursor } }),
    [action, pages.cursor],
  );
  return (
    <>
      <h1>Audit log</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="audit-action">Action</label>
          <select
            id="audit-action"
            value={action}
            onChange={(e) => {
              setAction(e.currentTarget.value);
              pages.reset();
            }}
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
      </form>
      <ErrorNote error={error} />
      {loading && !data && <p class="muted">Loading…</p>}
      {data && (
        <section class="card">
          <AuditTable entries={data.entries} />
          <Pager
            page={pages.page}
            hasNext={!!data.next_cursor}
            onPrevious={pages.previous}
            onNext={() => data.next_cursor && pages.next(data.next_cursor)}
          />
        </section>
      )}
    </>
  );
}
