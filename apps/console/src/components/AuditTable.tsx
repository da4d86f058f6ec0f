import type { AuditEntry } from '../api';
import { paths } from '../router';
import { DataTable } from './DataTable';
import { Time } from './Time';

/** Audit entries, newest first; details as JSON text (never as markup). */
export function AuditTable(props: { entries: readonly AuditEntry[]; showKey?: boolean }) {
  return (
    <DataTable
      class="audit"
      rows={props.entries}
      rowKey={(e) => e.id}
      empty="No audit entries."
      columns={[
        { header: 'When', cell: (e) => <Time iso={e.at} /> },
        { header: 'Action', cell: (e) => <code>{e.action}</code> },
        ...(props.showKey !== false
          ? [{ header: 'Key', cell: (e: AuditEntry) => (e.key_id ? <a href={paths.key(e.key_id)}>{e.key_id}</a> : '–') }]
          : []),
        { header: 'Reason', cell: (e) => e.reason ?? '' },
        { header: 'Details', class: 'details', cell: (e) => (e.details ? <code>{JSON.stringify(e.details)}</code> : '') },
      ]}
    />
  );
}
