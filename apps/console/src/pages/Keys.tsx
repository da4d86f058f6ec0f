import { useState } from 'preact/hooks';
import { ENVIRONMENTS, ok, type Schema, STATUSES, TIERS } from '../api';
import { useAction } from '../action';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { keyLinkColumn } from '../components/KeyLinkColumn';
import { ErrorNote } from '../components/ErrorNote';
import { Choice, Field } from '../components/Field';
import { LoadState } from '../components/LoadState';
import { Pager, useUrlPages } from '../components/Pager';
import { SecretOnce } from '../components/SecretOnce';
import { Time } from '../components/Time';
import { formatLimit, fromLocalInput } from '../format';
import { useLoad } from '../load';
import { type Params, paths, useQuery } from '../router';
import { useAllowance, useApi } from '../session';

const PAGE_SIZE = 25;

type IssuedKey = Schema<'IssuedKeyResponse'>;
type KeyRequest = Schema<'CreateKeyRequest'>;

/** The search's parameters, as they are in the address. */
const FILTERS = ['email', 'email_match', 'prefix', 'user_id', 'license_type', 'status'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function filtersOf(query: Params): Filters {
  return Object.fromEntries(FILTERS.map((name) => [name, query[name] ?? ''])) as Filters;
}

/**
 * Search keys (e-mail in any case, whole or its start; prefix, user id, tier, status), page through
 * them, issue a key. The search and the pages seen are the address: Back, Forward and a copied
 * address give the same view.
 */
export function Keys() {
  const api = useApi();
  const { query, set } = useQuery();
  const filters = filtersOf(query);
  const pages = useUrlPages();
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const search = filtersKey(filters);
  const mayIssue = useAllowance('keys.issue', 'issue-refused');
  const keys = useLoad(
    (signal) =>
      ok(
        api.client.GET('/admin/v1/keys', {
          params: {
            // the filters as the address has them (the service judges them)
            query: {
              ...(filters.email_match === 'start' ? { email_prefix: filters.email } : { email: filters.email }),
              prefix: filters.prefix,
              user_id: filters.user_id,
              license_type: filters.license_type as KeyRequest['license_type'],
              status: filters.status as Schema<'ListedKeyResponse'>['status'],
              limit: PAGE_SIZE,
              cursor: pages.cursor,
            },
          },
          signal,
        }),
      ),
    [search, pages.cursor],
  );
  return (
    <>
      <div class="title-row">
        <h1>Keys</h1>
        {!issuing && !issued && (
          <button
            type="button"
            class="primary"
            disabled={mayIssue.off}
            aria-describedby={mayIssue.describedBy}
            onClick={() => setIssuing(true)}
          >
            Issue a key
          </button>
        )}
      </div>
      {mayIssue.note}
      {issued && (
        <SecretOnce
          title="New key issued"
          secret={issued.api_key}
          onDone={() => {
            setIssued(null);
            keys.reload();
          }}
        >
          <p>
            Key <a href={paths.key(issued.key_id)}>{issued.key_id}</a> ({issued.license_type}, {issued.environment}), expires{' '}
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
      <SearchForm key={search} filters={filters} onSearch={(next) => set(next)} />
      <section class="card" aria-labelledby="results-title">
        <h2 id="results-title" class="visually-hidden">
          Keys found
        </h2>
        <LoadState load={keys} what="keys">
          {(data) => (
            <>
              <DataTable
                class="keys"
                rows={data.keys}
                rowKey={(k) => k.key_id}
                rowAttributes={(k) => ({ 'data-key-id': k.key_id })}
                empty="No key matches."
                columns={[
                  keyLinkColumn('Prefix'),
                  { header: 'E-mail', cell: (k) => k.email },
                  { header: 'Tier', cell: (k) => k.license_type },
                  { header: 'Env.', cell: (k) => k.environment },
                  { header: 'Status', cell: (k) => <span class={`badge status-${k.status}`}>{k.status}</span> },
                  { header: 'Monthly limit', num: true, cell: (k) => formatLimit(k.monthly_limit) },
                  { header: 'Expires', cell: (k) => <Time iso={k.expires_at} /> },
                ]}
              />
              <Pager label="Pages of keys" pages={pages} nextCursor={data.next_cursor ?? null} busy={keys.fetching} />
            </>
          )}
        </LoadState>
      </section>
    </>
  );
}

function filtersKey(filters: Filters): string {
  return FILTERS.map((name) => filters[name]).join('\u0000');
}

/** The search form: a draft of the filters, sent to the address on Search (a new history entry, from page 1). */
function SearchForm(props: { filters: Filters; onSearch: (filters: Params) => void }) {
  const [draft, setDraft] = useState<Filters>(props.filters);
  const text = (name: 'email' | 'prefix' | 'user_id', label: string, placeholder: string) => (
    <Field id={`filter-${name}`} label={label}>
      <input
        id={`filter-${name}`}
        type="text"
        placeholder={placeholder}
        value={draft[name]}
        onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
      />
    </Field>
  );
  return (
    <form
      class="filters card"
      role="search"
      aria-label="Search keys"
      onSubmit={(e) => {
        e.preventDefault();
        // a pasted whole key is cut to its display prefix: the secret never goes into a URL
        const prefix = draft.prefix.trim().slice(0, 12);
        const email = draft.email.trim();
        props.onSearch({
          ...draft,
          email,
          email_match: email && draft.email_match === 'start' ? 'start' : undefined,
          prefix,
          user_id: draft.user_id.trim(),
        });
      }}
    >
      {text('email', 'E-mail (any case)', 'ada@example.org')}
      <div class="field check">
        <input
          id="filter-email-start"
          type="checkbox"
          checked={draft.email_match === 'start'}
          onChange={(e) => setDraft({ ...draft, email_match: e.currentTarget.checked ? 'start' : '' })}
        />
        <label for="filter-email-start">E-mail starts with this</label>
      </div>
      {text('prefix', 'Key prefix (first 12 characters)', 'svc_live_1a2')}
      {text('user_id', 'User id', 'usr_…')}
      <Field id="filter-license_type" label="Tier">
        <Choice
          id="filter-license_type"
          value={draft.license_type}
          options={TIERS}
          any="Any"
          onChange={(v) => setDraft({ ...draft, license_type: v })}
        />
      </Field>
      <Field id="filter-status" label="Status">
        <Choice id="filter-status" value={draft.status} options={STATUSES} any="Any" onChange={(v) => setDraft({ ...draft, status: v })} />
      </Field>
      <div class="field buttons">
        <button type="submit" class="primary">
          Search
        </button>
        <button type="button" onClick={() => props.onSearch({})}>
          Clear
        </button>
      </div>
    </form>
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
  const api = useApi();
  const set = (name: keyof typeof form) => (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value });
  const issue = useAction(async () => {
    const body: KeyRequest = {
      license_type: form.license_type as KeyRequest['license_type'],
      environment: form.environment as KeyRequest['environment'],
    };
    for (const name of ['email', 'name', 'organization', 'user_id'] as const) if (form[name].trim()) body[name] = form[name].trim();
    // as before: an input the browser could not read is sent as null, and the service answers why
    if (form.expires_at) body.expires_at = fromLocalInput(form.expires_at) as string;
    if (form.limit === 'unlimited') body.monthly_limit = null;
    if (form.limit === 'override') body.monthly_limit = Number(form.monthly_limit);
    props.onIssued(await ok(api.client.POST('/admin/v1/keys', { body })));
    return 'Issued.';
  });
  return (
    <form
      class="card form"
      onSubmit={(event) => {
        event.preventDefault();
        void issue.run();
      }}
      aria-labelledby="issue-title"
    >
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
            {ENVIRONMENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
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
      <ErrorNote error={issue.error} />
      <div class="actions">
        <button type="button" onClick={props.onCancel} disabled={issue.busy}>
          Cancel
        </button>
        <ActionButton type="submit" class="primary" busy={issue.busy} busyText="Issuing…">
          Issue the key
        </ActionButton>
      </div>
    </form>
  );
}
