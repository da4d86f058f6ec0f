import { type Overview as OverviewData, STATUSES, call } from '../api';
import { AuditTable } from '../components/AuditTable';
import { BarChart } from '../components/BarChart';
import { CountsTable } from '../components/CountsTable';
import { ErrorNote } from '../components/ErrorNote';
import { Link } from '../components/Link';
import { formatCount, formatPercent } from '../format';
import { useLoad } from '../load';
import { keyPath } from '../router';

/** Keys by tier and status, events per day (30 days), keys near their quota, recent audit events. */
export function Overview() {
  const { data, error, loading } = useLoad(() => call<OverviewData>('GET', '/overview'), []);
  return (
    <>
      <h1>Overview</h1>
      <ErrorNote error={error} />
      {loading && !data && <p class="muted">Loading…</p>}
      {data && (
        <>
          <div class="grid">
            <section class="card">
              <h2>Keys by status</h2>
              <dl class="stats">
                {STATUSES.map((status) => (
                  <div key={status} class={`stat status-${status}`}>
                    <dt>{status}</dt>
                    <dd data-testid={`status-${status}`}>{formatCount(data.keys_by_status[status] ?? 0)}</dd>
                  </div>
                ))}
              </dl>
            </section>
            <CountsTable title="Keys by tier" counts={data.keys_by_tier} name="Tier" />
          </div>
          <section class="card">
            <BarChart
              title="Events per day, last 30 days (UTC)"
              unit="events"
              days={data.events_per_day.map((d) => ({ date: d.date, value: d.events }))}
            />
          </section>
          <section class="card">
            <h2>Keys at or near their quota</h2>
            {data.near_quota.length === 0 ? (
              <p class="muted">No key is near its monthly limit.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">E-mail</th>
                      <th scope="col">Tier</th>
                      <th scope="col" class="num">
                        Used
                      </th>
                      <th scope="col" class="num">
                        Limit
                      </th>
                      <th scope="col">Share</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.near_quota.map((k) => (
                      <tr key={k.key_id}>
                        <td>
                          <Link href={keyPath(k.key_id)}>
                            <code>{k.prefix}…</code>
                          </Link>
                        </td>
                        <td>{k.email}</td>
                        <td>{k.license_type}</td>
                        <td class="num">{formatCount(k.used)}</td>
                        <td class="num">{formatCount(k.monthly_limit)}</td>
                        <td>
                          <meter
                            min={0}
                            max={100}
                            low={80}
                            high={95}
                            optimum={0}
                            value={Math.min(k.percent, 100)}
                            aria-label={`Quota used by ${k.prefix}`}
                          />{' '}
                          {formatPercent(k.percent / 100)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section class="card">
            <h2>Recent audit events</h2>
            <AuditTable entries={data.recent_audit} />
            <p>
              <Link href="/console/audit">The whole audit log →</Link>
            </p>
          </section>
        </>
      )}
    </>
  );
}
