import type { AuditEntry } from '../api';
import { keyPath } from '../router';
import { Link } from './Link';
import { Time } from './Time';

/** Audit entries, newest first; details as JSON text (never as markup). */
export function AuditTable(props: { entries: readonly AuditEntry[]; showKey?: boolean }) {
  if (props.entries.length === 0) return <p class="muted">No audit entries.</p>;
  return (
    <div class="table-wrap">
      <table class="audit">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Action</th>
            {props.showKey !== false && <th scope="col">Key</th>}
            <th scope="col">Reason</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <Time iso={entry.at} />
              </td>
              <td>
                <code>{entry.action}</code>
              </td>
              {props.showKey !== false && <td>{entry.key_id ? <Link href={keyPath(entry.key_id)}>{entry.key_id}</Link> : '–'}</td>}
              <td>{entry.reason ?? ''}</td>
              <td class="details">{entry.details ? <code>{JSON.stringify(entry.details)}</code> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
