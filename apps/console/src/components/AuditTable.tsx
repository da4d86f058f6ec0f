import type { Schema } from '../api';
import { paths } from '../router';
import { DataTable } from './DataTable';
import { Time } from './Time';

type AuditEntry = Schema<'AuditEntryResponse'>;

/** Who made an entry (CONTRACT 21): an operator (linked to their entries), ADMIN_TOKEN, the key itself, the CLI's OS user, the system. */
export function ActorName(props: { actor: Schema<'ActorResponse'> | undefined }) {
  const actor = props.actor;
  switch (actor?.type) {
    case 'operator':
      return (
        <a href={paths.audit({ actor: actor.operator_id })} title={`Every entry by ${actor.operator_id}`} data-actor={actor.operator_id}>
          {actor.name}
        </a>
      );
    case 'bootstrap':
      return <span>ADMIN_TOKEN</span>;
    case 'key':
      return (
        <span>
          the key <a href={paths.key(actor.key_id ?? '')}>{actor.key_id}</a>
        </span>
      );
    case 'cli':
      return <span>CLI ({actor.user})</span>;
    case 'system':
      return <span>the service</span>;
    default:
      return <span class="muted">–</span>;
  }
}

/** Audit entries, newest first, each with its actor; details as JSON text (never as markup). */
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
        { header: 'Actor', class: 'actor', cell: (e) => <ActorName actor={e.actor} /> },
        ...(props.showKey !== false
          ? [{ header: 'Key', cell: (e: AuditEntry) => (e.key_id ? <a href={paths.key(e.key_id)}>{e.key_id}</a> : '–') }]
          : []),
        { header: 'Reason', cell: (e) => e.reason ?? '' },
        { header: 'Details', class: 'details', cell: (e) => (e.details ? <code>{JSON.stringify(e.details)}</code> : '') },
      ]}
    />
  );
}
