import { ok, STATUSES } from '../api';
import { AuditTable } from '../components/AuditTable';
import { BarChart } from '../components/BarChart';
import { CountsTable } from '../components/CountsTable';
import { LoadState } from '../components/LoadState';
import { formatCount } from '../format';
import { useLoad } from '../load';
import { paths } from '../router';
import { useApi } from '../session';
import { NearQuotaTable } from './NearQuota';

/** Keys by tier and status, events per day (30 days), keys near their quota, recent audit events. */
export function Overview() {
  const api = useApi();
  const overview = useLoad((signal) => ok(api.client.GET('/admin/v1/overview', { signal })), []);
  return (
    <>
      <h1>Overview</h1>
      <LoadState load={overview} what="the overview">
        {(data) => (
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
              <section class="card">
                <h2>Devices</h2>
                <dl class="stats">
                  <div class="stat">
                    <dt>active</dt>
                    <dd data-testid="active-devices">{formatCount(data.active_devices)}</dd>
                  </div>
                </dl>
              </section>
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
              <NearQuotaTable keys={data.near_quota} />
              <p>
                <a href={paths.nearQuota()}>Every key at or near its quota →</a>
              </p>
            </section>
            <section class="card">
              <h2>Recent audit events</h2>
              <AuditTable entries={data.recent_audit} />
              <p>
                <a href={paths.audit()}>The whole audit log →</a>
              </p>
            </section>
          </>
        )}
      </LoadState>
    </>
  );
}
