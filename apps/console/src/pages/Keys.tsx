import { useState } from 'preact/hooks';
import { type IssuedKey, type KeyPage, STATUSES, TIERS, call } from '../api';
import { ErrorNote } from '../components/ErrorNote';
import { Link } from '../components/Link';
import { Pager, useCursorPages } from '../components/Pager';
import { SecretOnce } from '../components/SecretOnce';
import { Time } from '../components/Time';
import { formatLimit, fromLocalInput } from '../format';
import { useLoad } from '../load';
import { keyPath } from '../router';

const PAGE_SIZE = 25;

interface Filters {
  email: string;
  prefix: string;
  user_id: string;
  license_type: string;
  status: string;
}

const NO_FILTERS: Filters = { email: '', prefix: '', user_id: '', license_type: '', status: '' };

/** Search keys (e-mail, prefix, user id, tier, status), page through them, issue a key. */
export function Keys() {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const pages = useCursorPages();
  const { data, error, loading, reload } = useLoad(
    () => call<KeyPage>('GET', '/keys', { query: { ...filters, limit: PAGE_SIZE, cursor: pages.cursor } }),
    [filters, pages.cursor],
  );
  const field = (name: keyof Filters, label: string, placeholder = '') => (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      <input
        id={`filter-${name}`}
        type="text"
        placeholder={placeholder}
        value={draft[name]}
        onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
      />
    </div>
  );
  const select = (name: 'license_type' | 'status', label: string, options: readonly string[]) => (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} value={draft[name]} onChange={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <>
      <div class="title-row">
        <h1>Keys</h1>
        {!issuing && !issued && (
          <button type="button" class="primary" onClick={() => setIssuing(true)}>
            Issue a key
          </button>
        )}
      </div>
      {issued && (
        <SecretOnce
          title="New key issued"
          secret={issued.api_key}
          onDone={() => {
            setIssued(null);
            reload();
          }}
        >
          <p>
            Key <Link href={keyPath(issued.key_id)}>{issued.key_id}</Link> ({issued.license_type}, {issued.environment}), expires{' '}
            <Time iso={issued.expires_at} />.
          </p>
        </SecretOnce>
      )}
      {issuing && (
        <IssueKeyForm
          onCancel={() => setIssuing(false)}
          onIssued={(key) => {
            setIssuing(false);
            setIssued(key);
          }}
        />
      )}
      <form
        class="filters card"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          // a pasted whole key is cut to its display prefix: the secret never goes into a URL
          const prefix = draft.prefix.trim().slice(0, 12);
          setDraft({ ...draft, prefix });
          setFilters({ ...draft, email: draft.email.trim(), prefix, user_id: draft.user_id.trim() });
          pages.reset();
        }}
      >
        {field('email', 'E-mail (exact)', 'ada@example.org')}
        {field('prefix', 'Key prefix (first 12 characters)', 'svc_live_1a2')}
        {field('user_id', 'User id', 'usr_…')}
        {select('license_type', 'Tier', TIERS)}
        {select('status', 'Status', STATUSES)}
        <div class="field buttons">
          <button type="submit" class="primary">
            Search
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
              pages.reset();
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {loading && !data && <p class="muted">Loading…</p>}
      {data && (
        <section class="card">
          {data.keys.length === 0 ? (
            <p class="muted">No key matches.</p>
          ) : (
            <div class="table-wrap">
              <table class="keys">
                <thead>
                  <tr>
                    <th scope="col">Prefix</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Tier</th>
                    <th scope="col">Env.</th>
                    <th scope="col">Status</th>
                    <th scope="col" class="num">
                      Monthly limit
                    </th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {data.keys.map((key) => (
                    <tr key={key.key_id} data-key-id={key.key_id}>
                      <td>
                        <Link href={keyPath(key.key_id)}>
                          <code>{key.prefix}…</code>
                        </Link>
                      </td>
                      <td>{key.email}</td>
                      <td>{key.license_type}</td>
                      <td>{key.environment}</td>
                      <td>
                        <span class={`badge status-${key.status}`}>{key.status}</span>
                      </td>
                      <td class="num">{formatLimit(key.monthly_limit)}</td>
                      <td>
                        <Time iso={key.expires_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
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

/** POST /admin/v1/keys: the user (e-mail, or an existing user id), tier, environment, expiry, limit. */
function IssueKeyForm(props: { onCancel: () => void; onIssued: (key: IssuedKey) => void }) {
  const [form, setForm] = useState({
    email: '',
    name: '',
    organization: '',
    user_id: '',
    license_type: 'research',
    environment: 'live',
    expires_at: '',
    limit: 'tier',
    monthly_limit: '',
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof form) => (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const body: Record<string, unknown> = { license_type: form.license_type, environment: form.environment };
    for (const name of ['email', 'name', 'organization', 'user_id'] as const) if (form[name].trim()) body[name] = form[name].trim();
    if (form.expires_at) body.expires_at = fromLocalInput(form.expires_at);
    if (form.limit === 'unlimited') body.monthly_limit = null;
    if (form.limit === 'override') body.monthly_limit = Number(form.monthly_limit);
    setBusy(true);
    try {
      props.onIssued(await call<IssuedKey>('POST', '/keys', { body }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card form" onSubmit={(event) => void submit(event)} aria-labelledby="issue-title">
      <h2 id="issue-title">Issue a key</h2>
      <div class="form-grid">
        <div class="field">
          <label for="issue-email">E-mail</label>
          <input id="issue-email" type="email" value={form.email} onInput={set('email')} required={!form.user_id.trim()} />
        </div>
        <div class="field">
          <label for="issue-user">Or an existing user id</label>
          <input id="issue-user" value={form.user_id} onInput={set('user_id')} />
        </div>
        <div class="field">
          <label for="issue-name">Name</label>
          <input id="issue-name" value={form.name} onInput={set('name')} />
        </div>
        <div class="field">
          <label for="issue-org">Organization</label>
          <input id="issue-org" value={form.organization} onInput={set('organization')} />
        </div>
        <div class="field">
          <label for="issue-tier">Tier</label>
          <select id="issue-tier" value={form.license_type} onChange={set('license_type')}>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="issue-env">Environment</label>
          <select id="issue-env" value={form.environment} onChange={set('environment')}>
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </div>
        <div class="field">
          <label for="issue-expires">Expires (your time; empty: in 365 days)</label>
          <input id="issue-expires" type="datetime-local" value={form.expires_at} onInput={set('expires_at')} />
        </div>
        <div class="field">
          <label for="issue-limit">Monthly limit</label>
          <select id="issue-limit" value={form.limit} onChange={set('limit')}>
            <option value="tier">The tier's</option>
            <option value="override">A number</option>
            <option value="unlimited">Unlimited</option>
          </select>
        </div>
        {form.limit === 'override' && (
          <div class="field">
            <label for="issue-limit-value">Inferences per month</label>
            <input
              id="issue-limit-value"
              type="number"
              min={0}
              step={1}
              required
              value={form.monthly_limit}
              onInput={set('monthly_limit')}
            />
          </div>
        )}
      </div>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Issuing…' : 'Issue the key'}
        </button>
      </div>
    </form>
  );
}
