import { AUDIT_ACTIONS, ok, type Schema } from '../api';
import { AuditTable } from '../components/AuditTable';
import { Choice, Field } from '../components/Field';
import { LoadState } from '../components/LoadState';
import { Pager, useUrlPages } from '../components/Pager';
import { useLoad } from '../load';
import { paths, useQuery } from '../router';
import { useApi } from '../session';

const PAGE_SIZE = 50;

type AuditAction = Schema<'AuditEntryResponse'>['action'];

/**
 * The whole audit log, newest first, filtered by action and by operator (an actor's name links
 * here), paged; the filters and the pages are the address.
 */
export function Audit() {
  const api = useApi();
  const { query, set } = useQuery();
  const action = query.action ?? '';
  const actor = query.actor ?? '';
  const pages = useUrlPages();
  const audit = useLoad(
    (signal) =>
      ok(
        api.client.GET('/admin/v1/audit', {
          // the action as the address has it (the service judges it)
          params: { query: { action: action as AuditAction, actor, limit: PAGE_SIZE, cursor: pages.cursor } },
          signal,
        }),
      ),
    [action, actor, pages.cursor],
  );
  return (
    <>
      <h1>Audit log</h1>
      <form class="filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <Field id="audit-action" label="Action">
          <Choice
            id="audit-action"
            value={action}
            options={AUDIT_ACTIONS}
            any="All actions"
            onChange={(v) => set({ action: v || undefined, actor: actor || undefined })}
          />
        </Field>
      </form>
      {actor && (
        <p data-testid="actor-filter">
          Only the entries made by operator <code>{actor}</code>.{' '}
          <a href={paths.audit({ action: action || undefined })}>Show every actor.</a>
        </p>
      )}
      <section class="card" aria-label="Audit entries">
        <LoadState load={audit} what="audit entries">
          {(data) => (
            <>
              <AuditTable entries={data.entries} />
              <Pager label="Pages of the audit log" pages={pages} nextCursor={data.next_cursor ?? null} busy={audit.fetching} />
            </>
          )}
        </LoadState>
      </section>
    </>
  );
}
