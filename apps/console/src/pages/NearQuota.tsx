import { ok, type Schema } from '../api';
import { DataTable } from '../components/DataTable';
import { keyLinkColumn } from '../components/KeyLinkColumn';
import { LoadState } from '../components/LoadState';
import { Pager, useUrlPages } from '../components/Pager';
import { formatCount, formatPercent } from '../format';
import { useLoad } from '../load';
import { paths } from '../router';
import { useApi } from '../session';

const PAGE_SIZE = 25;

/** Keys at or near their quota as a table: used, limit and the share (highest first, as the service sorts them). */
export function NearQuotaTable(props: { keys: readonly Schema<'NearQuotaResponse'>[] }) {
  return (
    <DataTable
      class="near-quota"
      rows={props.keys}
      rowKey={(k) => k.key_id}
      rowAttributes={(k) => ({ 'data-key-id': k.key_id })}
      empty="No key is near its monthly limit."
      columns={[
        keyLinkColumn('Key'),
        { header: 'E-mail', cell: (k) => k.email },
        { header: 'Tier', cell: (k) => k.license_type },
        { header: 'Used', num: true, cell: (k) => formatCount(k.used) },
        { header: 'Limit', num: true, cell: (k) => formatCount(k.monthly_limit) },
        {
          header: 'Share',
          cell: (k) => (
            <>
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
            </>
          ),
        },
      ]}
    />
  );
}

/** Every key at or near its quota this month (GET /admin/v1/usage/near-quota), highest share first, paged; the pages are the address. */
export function NearQuota() {
  const api = useApi();
  const pages = useUrlPages();
  const near = useLoad(
    (signal) => ok(api.client.GET('/admin/v1/usage/near-quota', { params: { query: { limit: PAGE_SIZE, cursor: pages.cursor } }, signal })),
    [pages.cursor],
  );
  return (
    <>
      <p>
        <a href={paths.overview()}>← Overview</a>
      </p>
      <h1>Keys at or near their quota</h1>
      <p class="muted">
        At least 80% of the monthly limit in force used this month (a license once, on its current key), highest share first.
      </p>
      <section class="card" aria-label="Keys near their quota">
        <LoadState load={near} what="keys near their quota">
          {(data) => (
            <>
              <NearQuotaTable keys={data.keys} />
              <Pager label="Pages of keys near their quota" pages={pages} nextCursor={data.next_cursor ?? null} busy={near.fetching} />
            </>
          )}
        </LoadState>
      </section>
    </>
  );
}
