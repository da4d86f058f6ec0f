import { useState } from 'preact/hooks';
import { ok, type Schema, TIERS } from '../api';
import { useAction } from '../action';
import { ActionButton } from '../components/ActionButton';
import { AuditTable } from '../components/AuditTable';
import { BarChart } from '../components/BarChart';
import { useConfirm } from '../components/Confirm';
import { CountsTable } from '../components/CountsTable';
import { DataTable } from '../components/DataTable';
import { ErrorNote } from '../components/ErrorNote';
import { Choice, Field } from '../components/Field';
import { LoadState } from '../components/LoadState';
import { Pager, useUrlPages } from '../components/Pager';
import { QuotaGauge } from '../components/QuotaGauge';
import { SecretOnce } from '../components/SecretOnce';
import { Time } from '../components/Time';
import { currentPeriod, formatLimit, fromLocalInput, toLocalInput } from '../format';
import { useLoad } from '../load';
import { paths } from '../router';
import { useAllowance, useApi } from '../session';

const AUDIT_PAGE = 20;

type KeyDetails = Schema<'KeyResponse'>;
type RecentEvent = Schema<'RecentEventResponse'>;
type LicenseDevice = Schema<'LicenseDeviceResponse'>;

/** The key status whose badge style a device's state borrows. */
const DEVICE_BADGE: Record<LicenseDevice['status'], string> = { active: 'active', lapsed: 'expired', deactivated: 'revoked' };

/** A device's state in words: active, its lease lapsed, or deactivated and why (CONTRACT 23). */
function deviceStatusText(d: LicenseDevice): string {
  if (d.status === 'deactivated')
    return `deactivated (${d.deactivation_reason === 'lease_expired' ? 'lease expired' : `by ${d.deactivation_reason}`})`;
  return d.status === 'lapsed' ? 'lease lapsed' : 'active';
}

/**
 * The license's devices (CONTRACT 23), every key's: name, platform, activated, last seen, status and
 * reason, active first; Deactivate frees an active device's seat (asks first; disabled with the reason
 * for a role without devices.deactivate). Never a fingerprint: the API has none to give.
 */
function DevicesPanel(props: { keyId: string; maxDevices: number | null; round: number; onChanged: () => void }) {
  const api = useApi();
  const { dialog, ask } = useConfirm();
  const devices = useLoad(
    (signal) => ok(api.client.GET('/admin/v1/keys/{key_id}/devices', { params: { path: { key_id: props.keyId } }, signal })),
    [props.keyId, props.round],
  );
  const mayDeactivate = useAllowance('devices.deactivate', 'refused-deactivate');
  const deactivate = useAction(
    async (device: LicenseDevice) => {
      await ok(
        api.client.POST('/admin/v1/keys/{key_id}/devices/{device_id}/deactivate', {
          params: { path: { key_id: props.keyId, device_id: device.device_id } },
        }),
      );
      props.onChanged();
      return `Deactivated ${device.name ?? device.device_id}.`;
    },
    (device) =>
      ask(
        'Deactivate the device',
        `Deactivate ${device.name ?? device.device_id}? Its seat is freed at once; the SDK on it must activate again to work.`,
        'Deactivate',
        true,
      ),
  );
  return (
    <section class="card" aria-labelledby="devices-title" data-testid="devices">
      <h2 id="devices-title">Devices</h2>
      <LoadState load={devices} what="the devices">
        {(data) => (
          <>
            <p data-testid="devices-count">
              {data.active} of {props.maxDevices === null ? 'unlimited' : props.maxDevices} seats held (the license's, every key's devices)
            </p>
            {mayDeactivate.note}
            <DataTable
              rows={data.devices}
              rowKey={(d) => d.device_id}
              caption="The license's devices, active first"
              empty="No devices activated."
              columns={[
                { header: 'Name', cell: (d) => d.name ?? '–' },
                { header: 'Platform', cell: (d) => d.platform ?? '–' },
                { header: 'Activated', cell: (d) => <Time iso={d.activated_at} /> },
                { header: 'Last seen', cell: (d) => <Time iso={d.last_seen_at} /> },
                {
                  header: 'Status',
                  cell: (d) => (
                    <span class={`badge status-${DEVICE_BADGE[d.status]}`} data-device-status={d.status}>
                      {deviceStatusText(d)}
                    </span>
                  ),
                },
                {
                  header: 'Action',
                  cell: (d) =>
                    d.status === 'deactivated' ? (
                      '–'
                    ) : (
                      <ActionButton
                        busy={deactivate.busy}
                        busyText="Working…"
                        class="danger"
                        disabled={mayDeactivate.off}
                        describedBy={mayDeactivate.describedBy}
                        label={`Deactivate ${d.name ?? d.device_id}`}
                        onClick={() => void deactivate.run(d)}
                      >
                        Deactivate
                      </ActionButton>
                    ),
                },
              ]}
            />
          </>
        )}
      </LoadState>
      <ErrorNote error={deactivate.error} />
      {deactivate.done && <p role="status">{deactivate.done}</p>}
      {dialog}
    </section>
  );
}

/** The license's latest events (CONTRACT 22): when received, when the SDK says they happened, and how they came. */
function RecentEvents(props: { events: readonly RecentEvent[] }) {
  return (
    <div data-testid="recent-events">
      <h3>Recent events</h3>
      <DataTable
        rows={props.events}
        rowKey={(e) => e.event_id}
        caption="The license's latest events, newest received first"
        empty="No events yet."
        columns={[
          { header: 'Received', cell: (e) => <Time iso={e.received_at} /> },
          { header: 'Occurred', cell: (e) => <Time iso={e.occurred_at} /> },
          { header: 'How', cell: (e) => (e.batched ? 'batch' : 'single') },
          { header: 'Type', cell: (e) => e.event_type },
          { header: 'Model', cell: (e) => e.model_name ?? '–' },
          { header: 'Key', cell: (e) => <code>{e.key_id}</code> },
        ]}
      />
    </div>
  );
}

/**
 * One key and its license (CONTRACT 16): details, the chain of keys with their status and grace,
 * the quota gauge and the license's daily usage split by key (the same counter: they agree), its
 * breakdowns, the key's audit trail (paged, pages in the address), and the operator's actions.
 */
export function KeyPage(props: { keyId: string }) {
  const keyId = props.keyId;
  const api = useApi();
  const [round, setRound] = useState(0);
  const period = currentPeriod();
  const auditPages = useUrlPages('audit');
  const key = useLoad(
    (signal) => ok(api.client.GET('/admin/v1/keys/{key_id}', { params: { path: { key_id: keyId } }, signal })),
    [keyId, round],
  );
  const usage = useLoad(
    (signal) => ok(api.client.GET('/admin/v1/usage/daily', { params: { query: { key_id: keyId, ...period } }, signal })),
    [keyId, round],
  );
  const audit = useLoad(
    (signal) =>
      ok(api.client.GET('/admin/v1/audit', { params: { query: { key_id: keyId, limit: AUDIT_PAGE, cursor: auditPages.cursor } }, signal })),
    [keyId, round, auditPages.cursor],
  );
  const refresh = () => setRound((n) => n + 1);
  return (
    <>
      <p>
        <a href={paths.keys()}>← Keys</a>
      </p>
      <h1>
        Key <code>{key.data ? `${key.data.prefix}…` : keyId}</code>
      </h1>
      <LoadState load={key} what="the key">
        {(data) => (
          <>
            <div class="grid">
              <KeyDetailsCard details={data} />
              <section class="card">
                <h2>Quota this month (the license's)</h2>
                <QuotaGauge used={data.quota.used} limit={data.quota.monthly_limit} resetsAt={data.quota.resets_at} />
              </section>
            </div>
            <LicenseCard details={data} chain={usage.data?.keys ?? null} />
            <DevicesPanel keyId={data.key_id} maxDevices={data.max_devices} round={round} onChanged={refresh} />
            <KeyActions key={`${data.key_id}-${round}`} details={data} onChanged={refresh} />
          </>
        )}
      </LoadState>
      <section class="card" aria-labelledby="usage-title">
        <h2 id="usage-title">The license's usage this month, by key</h2>
        <LoadState load={usage} what="the usage">
          {(data) => (
            <>
              <BarChart
                title={`Inferences per day, ${data.from} to ${data.to} (UTC), every key of the license`}
                unit="inferences"
                parts={data.keys.map((k) => ({ id: k.key_id, label: `${k.prefix}… (${k.key_id === keyId ? 'this key' : k.status})` }))}
                days={data.days.map((d) => ({ date: d.date, value: d.inferences, parts: d.by_key }))}
              />
              <div class="grid three">
                <CountsTable title="Events by type" counts={data.by_event_type} name="Type" />
                <CountsTable title="Events by model" counts={data.by_model} name="Model" />
                <CountsTable title="Events by outcome" counts={data.by_outcome} name="Outcome" />
              </div>
              <RecentEvents events={data.recent_events} />
            </>
          )}
        </LoadState>
      </section>
      <section class="card" aria-labelledby="audit-title">
        <h2 id="audit-title">Audit trail of this key</h2>
        <LoadState load={audit} what="the audit trail">
          {(data) => (
            <>
              <AuditTable entries={data.entries} showKey={false} />
              <Pager label="Audit trail pages" pages={auditPages} nextCursor={data.next_cursor ?? null} busy={audit.fetching} />
            </>
          )}
        </LoadState>
      </section>
    </>
  );
}

function KeyDetailsCard(props: { details: KeyDetails }) {
  const data = props.details;
  return (
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
        <dt>Devices</dt>
        <dd data-testid="key-max-devices">
          {data.max_devices === null ? 'unlimited' : data.max_devices}{' '}
          <span class="muted">({data.max_devices_source === 'tier' ? "the tier's" : 'set for the license'})</span>
        </dd>
        <dt>Expires</dt>
        <dd>
          <Time iso={data.expires_at} />
        </dd>
      </dl>
    </section>
  );
}

/** The license: its id and its keys in the order of the chain, each a link with its status; a rotated key's expiry is its grace end. */
function LicenseCard(props: { details: KeyDetails; chain: readonly Schema<'LicenseKeyResponse'>[] | null }) {
  const d = props.details;
  const chain = props.chain ?? [];
  return (
    <section class="card" aria-labelledby="license-title" data-testid="license">
      <h2 id="license-title">License</h2>
      <dl class="details-list">
        <dt>License id</dt>
        <dd>
          <code data-testid="license-id">{d.license_id}</code>
        </dd>
        <dt>Rotated from</dt>
        <dd data-testid="rotated-from">{d.rotated_from ? <a href={paths.key(d.rotated_from)}>{d.rotated_from}</a> : '–'}</dd>
        <dt>Rotated into</dt>
        <dd data-testid="rotated-to">{d.rotated_to ? <a href={paths.key(d.rotated_to)}>{d.rotated_to}</a> : '–'}</dd>
      </dl>
      {chain.length > 1 && (
        <>
          <h3>Its keys, first to last</h3>
          <ol class="chain" aria-label="The license's keys">
            {chain.map((k) => (
              <li key={k.key_id} data-chain-key={k.key_id} aria-current={k.key_id === d.key_id ? 'true' : undefined}>
                <a href={paths.key(k.key_id)}>
                  <code>{k.prefix}…</code> {k.key_id}
                </a>{' '}
                <span class={`badge status-${k.status}`}>{k.status}</span>
                {k.key_id === d.key_id && <span class="muted"> (this key)</span>}{' '}
                {k.rotated_to ? (
                  <span>
                    rotated; its grace {k.status === 'active' ? 'ends' : 'ended'} <Time iso={k.expires_at} />
                  </span>
                ) : k.revoked_at ? (
                  <span>
                    revoked <Time iso={k.revoked_at} />
                  </span>
                ) : (
                  <span>
                    the current key, expires <Time iso={k.expires_at} />
                  </span>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/** Why the key's actions cannot succeed (null: they can). */
function blockedReason(d: KeyDetails): string | null {
  if (d.status === 'revoked') return 'This key is revoked: it can no longer be changed or rotated.';
  if (d.rotated_to) return 'This key was rotated: change, rotate or revoke the current key of its license instead.';
  return null;
}

/** The ids a control's aria-describedby names (the key's state, the role's refusal), or none. */
function describedByOf(...ids: Array<string | undefined>): string | undefined {
  return ids.filter((id) => id !== undefined).join(' ') || undefined;
}

/**
 * Change tier, limit or expiry; rotate; revoke. Each asks first, shows that it is running, acts once;
 * each is disabled with the reason when the key's state or the signed-in role (the session's) forbids it.
 */
function KeyActions(props: { details: KeyDetails; onChanged: () => void }) {
  const d = props.details;
  const api = useApi();
  const { dialog, ask } = useConfirm();
  const [tier, setTier] = useState<string>(d.license_type);
  const [limitMode, setLimitMode] = useState<string>(
    d.monthly_limit_source === 'tier' ? 'tier' : d.monthly_limit === null ? 'unlimited' : 'override',
  );
  const [limit, setLimit] = useState(d.monthly_limit === null ? '' : String(d.monthly_limit));
  const [expires, setExpires] = useState(toLocalInput(d.expires_at));
  const [reason, setReason] = useState('');
  const [grace, setGrace] = useState('');
  const [rotated, setRotated] = useState<Schema<'RotatedKeyResponse'> | null>(null);
  const mayTier = useAllowance('keys.change_tier', 'refused-tier');
  const mayLimit = useAllowance('keys.update', 'refused-limit');
  const mayExpire = useAllowance('keys.update', 'refused-expiry');
  // beyond the key's update_bounds: a limit above its tier's (or unlimited), an expiry far past the current one (admin)
  const mayRaise = useAllowance('keys.raise_limit', 'refused-raise');
  const mayExtend = useAllowance('keys.extend_expiry', 'refused-extend');
  const bounds = d.update_bounds;
  const limitBeyond =
    bounds.monthly_limit_max !== null &&
    (limitMode === 'unlimited' || (limitMode === 'override' && limit.trim() !== '' && Number(limit) > bounds.monthly_limit_max));
  const expiresIso = fromLocalInput(expires);
  const expiryBeyond = expiresIso !== null && new Date(expiresIso).getTime() > new Date(bounds.expires_at_max).getTime();
  const raiseRefused = limitBeyond && mayRaise.off;
  const extendRefused = expiryBeyond && mayExtend.off;
  const mayRotate = useAllowance('keys.rotate', 'refused-rotate');
  const mayRevoke = useAllowance('keys.revoke', 'refused-revoke');
  const blocked = blockedReason(d);
  // revoking a rotated key still in its grace ends the grace at once: allowed; nothing else is on a blocked key
  const revokeBlocked = d.status === 'revoked' ? blocked : null;
  const keyPath = { path: { key_id: d.key_id } };

  const patch = useAction(
    async (title: string, _question: string, _action: string, body: Schema<'UpdateKeyRequest'>) => {
      await ok(api.client.PATCH('/admin/v1/keys/{key_id}', { params: keyPath, body }));
      props.onChanged();
      return `${title}: done.`;
    },
    (title, question, action) => ask(title, question, action),
  );
  const rotate = useAction(
    async () => {
      const body = grace.trim() === '' ? {} : { grace_seconds: Number(grace) };
      setRotated(await ok(api.client.POST('/admin/v1/keys/{key_id}/rotate', { params: keyPath, body })));
      return 'Rotated.';
    },
    () =>
      ask(
        'Rotate the key',
        'Issue a new key for the same user, tier, expiry and limit? The new key is shown once; the old one keeps working for the grace period, then expires.',
        'Rotate',
      ),
  );
  const revoke = useAction(
    async () => {
      await ok(
        api.client.POST('/admin/v1/keys/{key_id}/revoke', { params: keyPath, body: reason.trim() ? { reason: reason.trim() } : {} }),
      );
      props.onChanged();
      return 'Revoked.';
    },
    () => ask('Revoke the key', 'Revoke this key now? Every instance refuses it at once, and revocation cannot be undone.', 'Revoke', true),
  );
  const [formError, setFormError] = useState<string | null>(null);

  if (rotated) {
    return (
      <SecretOnce
        title="Key rotated: the new key"
        secret={rotated.api_key}
        onDone={() => {
          setRotated(null);
          props.onChanged(); // this key is now rotated: its page shows the chain and its actions disabled
        }}
      >
        <p>
          New key <a href={paths.key(rotated.key_id)}>{rotated.key_id}</a>, expires <Time iso={rotated.expires_at} />. The previous key
          keeps working until <Time iso={rotated.previous_key_expires_at} />.
        </p>
      </SecretOnce>
    );
  }
  const off = blocked !== null;
  const describedBy = off ? 'actions-blocked' : undefined;
  return (
    <section class="card" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {blocked && (
        <p class="reason" id="actions-blocked" data-testid="actions-blocked">
          {blocked}
          {d.rotated_to && (
            <>
              {' '}
              <a href={paths.key(d.rotated_to)}>Go to the key it was rotated into.</a>
            </>
          )}
        </p>
      )}
      <div class="actions-grid">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void patch.run('Change the tier', `Change this key's tier from ${d.license_type} to ${tier}?`, 'Change tier', {
              license_type: tier as KeyDetails['license_type'],
            });
          }}
        >
          <Field id="action-tier" label="Tier">
            <div class="inline">
              <Choice id="action-tier" value={tier} options={TIERS} disabled={off || mayTier.off} onChange={setTier} />
              <ActionButton
                type="submit"
                busy={patch.busy}
                busyText="Working…"
                disabled={off || mayTier.off || tier === d.license_type}
                describedBy={describedByOf(describedBy, mayTier.describedBy)}
              >
                Change tier
              </ActionButton>
            </div>
          </Field>
          {mayTier.note}
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const value = limitMode === 'tier' ? 'tier' : limitMode === 'unlimited' ? null : Number(limit);
            const words = limitMode === 'tier' ? "the tier's limit" : value === null ? 'no limit' : `${limit} inferences a month`;
            void patch.run('Change the monthly limit', `Set this key's monthly limit to ${words}?`, 'Change limit', {
              monthly_limit: value,
            });
          }}
        >
          <Field id="action-limit-mode" label="Monthly limit">
            <div class="inline">
              <Choice
                id="action-limit-mode"
                value={limitMode}
                options={['tier', 'override', 'unlimited']}
                disabled={off || mayLimit.off}
                onChange={setLimitMode}
              />
              {limitMode === 'override' && (
                <input
                  id="action-limit"
                  aria-label="Inferences per month"
                  type="number"
                  min={0}
                  step={1}
                  required
                  disabled={off || mayLimit.off}
                  value={limit}
                  onInput={(e) => setLimit(e.currentTarget.value)}
                />
              )}
              <ActionButton
                type="submit"
                busy={patch.busy}
                busyText="Working…"
                disabled={off || mayLimit.off || raiseRefused}
                describedBy={describedByOf(describedBy, mayLimit.describedBy ?? (raiseRefused ? mayRaise.describedBy : undefined))}
              >
                Change limit
              </ActionButton>
            </div>
          </Field>
          {mayLimit.note}
          {!mayLimit.off && mayRaise.off && bounds.monthly_limit_max !== null && (
            <p class={raiseRefused ? 'reason' : 'muted'} id="refused-raise" data-refused={raiseRefused ? 'keys.raise_limit' : undefined}>
              Up to {formatLimit(bounds.monthly_limit_max)} a month; a higher limit or unlimited is an upgrade: {mayRaise.reason}
            </p>
          )}
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const iso = fromLocalInput(expires);
            setFormError(iso ? null : 'Choose an expiry time.');
            if (iso)
              void patch.run('Change the expiry', `Make this key expire at ${new Date(iso).toLocaleString()}?`, 'Change expiry', {
                expires_at: iso,
              });
          }}
        >
          <Field id="action-expires" label="Expires (your time)">
            <div class="inline">
              <input
                id="action-expires"
                type="datetime-local"
                required
                disabled={off || mayExpire.off}
                value={expires}
                onInput={(e) => setExpires(e.currentTarget.value)}
              />
              <ActionButton
                type="submit"
                busy={patch.busy}
                busyText="Working…"
                disabled={off || mayExpire.off || extendRefused}
                describedBy={describedByOf(describedBy, mayExpire.describedBy ?? (extendRefused ? mayExtend.describedBy : undefined))}
              >
                Change expiry
              </ActionButton>
            </div>
          </Field>
          {mayExpire.note}
          {!mayExpire.off && mayExtend.off && (
            <p
              class={extendRefused ? 'reason' : 'muted'}
              id="refused-extend"
              data-refused={extendRefused ? 'keys.extend_expiry' : undefined}
            >
              Until <Time iso={bounds.expires_at_max} /> at the latest (the default lifetime past the current expiry); later is an upgrade:{' '}
              {mayExtend.reason}
            </p>
          )}
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void rotate.run();
          }}
        >
          <Field id="action-grace" label="Rotate (grace in seconds; empty: the default)">
            <div class="inline">
              <input
                id="action-grace"
                type="number"
                min={0}
                max={604800}
                step={1}
                disabled={off || mayRotate.off}
                value={grace}
                onInput={(e) => setGrace(e.currentTarget.value)}
              />
              <ActionButton
                type="submit"
                busy={rotate.busy}
                busyText="Rotating…"
                disabled={off || mayRotate.off}
                describedBy={describedByOf(describedBy, mayRotate.describedBy)}
              >
                Rotate
              </ActionButton>
            </div>
          </Field>
          {mayRotate.note}
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void revoke.run();
          }}
        >
          <Field id="action-reason" label="Revoke (reason, optional)">
            <div class="inline">
              <input
                id="action-reason"
                maxLength={500}
                disabled={revokeBlocked !== null || mayRevoke.off}
                value={reason}
                onInput={(e) => setReason(e.currentTarget.value)}
              />
              <ActionButton
                type="submit"
                class="danger"
                busy={revoke.busy}
                busyText="Revoking…"
                disabled={revokeBlocked !== null || mayRevoke.off}
                describedBy={describedByOf(revokeBlocked ? 'actions-blocked' : undefined, mayRevoke.describedBy)}
              >
                Revoke
              </ActionButton>
            </div>
          </Field>
          {mayRevoke.note}
        </form>
      </div>
      <ErrorNote error={formError ?? patch.error ?? rotate.error ?? revoke.error} />
      {(patch.done ?? revoke.done) && <p role="status">{patch.done ?? revoke.done}</p>}
      {dialog}
    </section>
  );
}
