import { useState } from 'preact/hooks';
import { type AuditPage, type DailyUsage, type KeyDetails, type RotatedKey, TIERS, call } from '../api';
import { AuditTable } from '../components/AuditTable';
import { BarChart } from '../components/BarChart';
import { useConfirm } from '../components/Confirm';
import { CountsTable } from '../components/CountsTable';
import { ErrorNote } from '../components/ErrorNote';
import { Link } from '../components/Link';
import { QuotaGauge } from '../components/QuotaGauge';
import { SecretOnce } from '../components/SecretOnce';
import { Time } from '../components/Time';
import { currentPeriod, formatLimit, fromLocalInput, toLocalInput, utcDay } from '../format';
import { useLoad } from '../load';
import { keyPath } from '../router';

/** Every day from `from` to `to` (UTC), with the answer's counts and zero elsewhere. */
function everyDay(usage: DailyUsage): Array<{ date: string; value: number }> {
  const counts = new Map(usage.days.map((d) => [d.date, d.inferences]));
  const days: Array<{ date: string; value: number }> = [];
  for (let t = Date.parse(`${usage.from}T00:00:00Z`); t <= Date.parse(`${usage.to}T00:00:00Z`) && days.length < 400; t += 86400000) {
    const date = utcDay(new Date(t));
    days.push({ date, value: counts.get(date) ?? 0 });
  }
  return days;
}

/** One key: quota gauge, daily usage of the period, breakdowns, audit trail, and the operator's actions. */
export function KeyPage(props: { keyId: string }) {
  const keyId = props.keyId;
  const [round, setRound] = useState(0);
  const period = currentPeriod();
  const key = useLoad(() => call<KeyDetails>('GET', `/keys/${encodeURIComponent(keyId)}`), [keyId, round]);
  const usage = useLoad(() => call<DailyUsage>('GET', '/usage/daily', { query: { key_id: keyId, ...period } }), [keyId, round]);
  const audit = useLoad(() => call<AuditPage>('GET', '/audit', { query: { key_id: keyId, limit: 50 } }), [keyId, round]);
  const refresh = () => setRound((n) => n + 1);
  const data = key.data;
  return (
    <>
      <p>
        <Link href="/console/keys">← Keys</Link>
      </p>
      <h1>
        Key <code>{data ? `${data.prefix}…` : keyId}</code>
      </h1>
      <ErrorNote error={key.error} />
      {key.loading && !data && <p class="muted">Loading…</p>}
      {data && (
        <>
          <div class="grid">
            <section class="card">
              <h2>Details</h2>
              <dl class="details-list">
                <dt>Key id</dt>
                <dd>
                  <code>{data.key_id}</code>
                </dd>
                <dt>Status</dt>
                <dd>
                  <span class={`badge status-${data.status}`} data-testid="key-status">
                    {data.status}
                  </span>
                  {data.revoked_at && (
                    <>
                      {' '}
                      since <Time iso={data.revoked_at} />
                    </>
                  )}
                </dd>
                <dt>E-mail</dt>
                <dd>{data.email}</dd>
                <dt>User id</dt>
                <dd>
                  <code>{data.user_id}</code>
                </dd>
                <dt>Tier</dt>
                <dd data-testid="key-tier">{data.license_type}</dd>
                <dt>Environment</dt>
                <dd>{data.environment}</dd>
                <dt>Monthly limit</dt>
                <dd>
                  {formatLimit(data.monthly_limit)}{' '}
                  <span class="muted">({data.monthly_limit_source === 'tier' ? "the tier's" : 'set for this key'})</span>
                </dd>
                {data.created_at && (
                  <>
                    <dt>Created</dt>
                    <dd>
                      <Time iso={data.created_at} />
                    </dd>
                  </>
                )}
                <dt>Expires</dt>
                <dd>
                  <Time iso={data.expires_at} />
                </dd>
              </dl>
            </section>
            <section class="card">
              <h2>Quota this month</h2>
              <QuotaGauge used={data.quota.used} limit={data.quota.monthly_limit} resetsAt={data.quota.resets_at} />
            </section>
          </div>
          <KeyActions key={`${data.key_id}-${round}`} details={data} onChanged={refresh} />
        </>
      )}
      <section class="card">
        <ErrorNote error={usage.error} />
        {usage.data && (
          <BarChart
            title={`Inferences per day, ${usage.data.from} to ${usage.data.to} (UTC)`}
            unit="inferences"
            days={everyDay(usage.data)}
          />
        )}
      </section>
      {usage.data && (
        <div class="grid three">
          <CountsTable title="Events by type" counts={usage.data.by_event_type} name="Type" />
          <CountsTable title="Events by model" counts={usage.data.by_model} name="Model" />
          <CountsTable title="Events by outcome" counts={usage.data.by_outcome} name="Outcome" />
        </div>
      )}
      <section class="card">
        <h2>Audit trail</h2>
        <ErrorNote error={audit.error} />
        {audit.data && <AuditTable entries={audit.data.entries} showKey={false} />}
      </section>
    </>
  );
}

/** Change tier, limit or expiry; rotate; revoke. Each asks first. */
function KeyActions(props: { details: KeyDetails; onChanged: () => void }) {
  const d = props.details;
  const { dialog, ask } = useConfirm();
  const [tier, setTier] = useState(d.license_type);
  const [limitMode, setLimitMode] = useState(
    d.monthly_limit_source === 'tier' ? 'tier' : d.monthly_limit === null ? 'unlimited' : 'override',
  );
  const [limit, setLimit] = useState(d.monthly_limit === null ? '' : String(d.monthly_limit));
  const [expires, setExpires] = useState(toLocalInput(d.expires_at));
  const [reason, setReason] = useState('');
  const [grace, setGrace] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [rotated, setRotated] = useState<RotatedKey | null>(null);
  const revoked = d.status === 'revoked';

  const act = async (title: string, text: string, action: string, run: () => Promise<unknown>, danger = false) => {
    setError(null);
    setDone(null);
    if (!(await ask(title, text, action, danger))) return;
    try {
      await run();
      setDone(`${title}: done.`);
      props.onChanged();
    } catch (failure) {
      setError(failure);
    }
  };
  const patch = (body: Record<string, unknown>) => call('PATCH', `/keys/${encodeURIComponent(d.key_id)}`, { body });

  if (rotated) {
    return (
      <SecretOnce title="Key rotated: the new key" secret={rotated.api_key} onDone={() => setRotated(null)}>
        <p>
          New key <Link href={keyPath(rotated.key_id)}>{rotated.key_id}</Link>, expires <Time iso={rotated.expires_at} />. The previous key
          keeps working until <Time iso={rotated.previous_key_expires_at} />.
        </p>
      </SecretOnce>
    );
  }
  return (
    <section class="card" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {revoked && <p class="muted">This key is revoked: it can no longer be changed.</p>}
      <div class="actions-grid">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act('Change the tier', `Change this key's tier from ${d.license_type} to ${tier}?`, 'Change tier', () =>
              patch({ license_type: tier }),
            );
          }}
        >
          <label for="action-tier">Tier</label>
          <div class="inline">
            <select id="action-tier" value={tier} disabled={revoked} onChange={(e) => setTier(e.currentTarget.value)}>
              {TIERS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <button type="submit" disabled={revoked || tier === d.license_type}>
              Change tier
            </button>
          </div>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const value = limitMode === 'tier' ? undefined : limitMode === 'unlimited' ? null : Number(limit);
            const words = limitMode === 'tier' ? "the tier's limit" : value === null ? 'no limit' : `${limit} inferences a month`;
            void act('Change the monthly limit', `Set this key's monthly limit to ${words}?`, 'Change limit', () =>
              patch({ monthly_limit: value === undefined ? 'tier' : value }),
            );
          }}
        >
          <label for="action-limit-mode">Monthly limit</label>
          <div class="inline">
            <select id="action-limit-mode" value={limitMode} disabled={revoked} onChange={(e) => setLimitMode(e.currentTarget.value)}>
              <option value="tier">The tier's</option>
              <option value="override">A number</option>
              <option value="unlimited">Unlimited</option>
            </select>
            {limitMode === 'override' && (
              <input
                id="action-limit"
                aria-label="Inferences per month"
                type="number"
                min={0}
                step={1}
                required
                disabled={revoked}
                value={limit}
                onInput={(e) => setLimit(e.currentTarget.value)}
              />
            )}
            <button type="submit" disabled={revoked}>
              Change limit
            </button>
          </div>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const iso = fromLocalInput(expires);
            if (!iso) return setError('Choose an expiry time.');
            void act('Change the expiry', `Make this key expire at ${new Date(iso).toLocaleString()}?`, 'Change expiry', () =>
              patch({ expires_at: iso }),
            );
          }}
        >
          <label for="action-expires">Expires (your time)</label>
          <div class="inline">
            <input
              id="action-expires"
              type="datetime-local"
              required
              disabled={revoked}
              value={expires}
              onInput={(e) => setExpires(e.currentTarget.value)}
            />
            <button type="submit" disabled={revoked}>
              Change expiry
            </button>
          </div>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const body = grace.trim() === '' ? {} : { grace_seconds: Number(grace) };
            setError(null);
            setDone(null);
            void ask(
              'Rotate the key',
              'Issue a new key for the same user, tier, expiry and limit? The new key is shown once; the old one keeps working for the grace period, then expires.',
              'Rotate',
            ).then(async (yes) => {
              if (!yes) return;
              try {
                setRotated(await call<RotatedKey>('POST', `/keys/${encodeURIComponent(d.key_id)}/rotate`, { body }));
              } catch (failure) {
                setError(failure);
              }
            });
          }}
        >
          <label for="action-grace">Rotate (grace in seconds; empty: the default)</label>
          <div class="inline">
            <input
              id="action-grace"
              type="number"
              min={0}
              max={604800}
              step={1}
              disabled={revoked}
              value={grace}
              onInput={(e) => setGrace(e.currentTarget.value)}
            />
            <button type="submit" disabled={revoked}>
              Rotate
            </button>
          </div>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(
              'Revoke the key',
              'Revoke this key now? Every instance refuses it at once, and revocation cannot be undone.',
              'Revoke',
              () => call('POST', `/keys/${encodeURIComponent(d.key_id)}/revoke`, { body: reason.trim() ? { reason: reason.trim() } : {} }),
              true,
            );
          }}
        >
          <label for="action-reason">Revoke (reason, optional)</label>
          <div class="inline">
            <input id="action-reason" maxLength={500} disabled={revoked} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
            <button type="submit" class="danger" disabled={revoked}>
              Revoke
            </button>
          </div>
        </form>
      </div>
      <ErrorNote error={error} />
      {done && <p role="status">{done}</p>}
      {dialog}
    </section>
  );
}
