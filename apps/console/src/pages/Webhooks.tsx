import { useState } from 'preact/hooks';
import { useAction } from '../action';
import { ok, type Schema, WEBHOOK_EVENT_TYPES } from '../api';
import { ActionButton } from '../components/ActionButton';
import { useConfirm } from '../components/Confirm';
import { type Column, DataTable } from '../components/DataTable';
import { ErrorNote } from '../components/ErrorNote';
import { Field } from '../components/Field';
import { LoadState } from '../components/LoadState';
import { SecretOnce } from '../components/SecretOnce';
import { Time } from '../components/Time';
import { useLoad } from '../load';
import { useQuery } from '../router';
import { useAllowance, useApi } from '../session';

type WebhookEndpoint = Schema<'WebhookEndpointResponse'>;
type WebhookDelivery = Schema<'WebhookDeliveryResponse'>;
type WebhookEventType = WebhookEndpoint['events'][number];

/** Endpoints (add one, its secret shown once), a test event, their recent deliveries with attempts and last status, a retry. */
export function Webhooks() {
  const api = useApi();
  const write = useAllowance('webhooks.write', 'webhooks-write-refused');
  const testing = useAllowance('webhooks.test', 'webhooks-test-refused');
  const { query, set } = useQuery();
  const selected = query.endpoint ?? '';
  const endpoints = useLoad((signal) => ok(api.client.GET('/admin/v1/webhooks', { signal })), []);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const { dialog, ask } = useConfirm();

  const test = useAction(async (endpoint: WebhookEndpoint) => {
    await ok(api.client.POST('/admin/v1/webhooks/{id}/test', { params: { path: { id: endpoint.id } } }));
    set({ endpoint: endpoint.id });
    return `A test event is on its way to ${endpoint.url}.`;
  });
  const toggle = useAction(async (endpoint: WebhookEndpoint) => {
    await ok(api.client.PATCH('/admin/v1/webhooks/{id}', { params: { path: { id: endpoint.id } }, body: { enabled: !endpoint.enabled } }));
    endpoints.reload();
    return `${endpoint.url} ${endpoint.enabled ? 'disabled' : 'enabled'}.`;
  });
  const remove = useAction(
    async (endpoint: WebhookEndpoint) => {
      await ok(api.client.DELETE('/admin/v1/webhooks/{id}', { params: { path: { id: endpoint.id } } }));
      if (selected === endpoint.id) set({});
      endpoints.reload();
      return `${endpoint.url} deleted.`;
    },
    (endpoint) => ask('Delete the endpoint', `Delete ${endpoint.url} and its deliveries? Nothing more is sent to it.`, 'Delete', true),
  );
  const status = test.done ?? toggle.done ?? remove.done;

  const columns: ReadonlyArray<Column<WebhookEndpoint>> = [
    {
      header: 'Address',
      cell: (e) => (
        <>
          <code>{e.url}</code>
          {e.description && <div class="muted">{e.description}</div>}
        </>
      ),
    },
    { header: 'Events', cell: (e) => e.events.join(', ') },
    {
      header: 'State',
      cell: (e) =>
        e.enabled ? (
          e.failing_since ? (
            <span class="badge status-expired">
              failing since <Time iso={e.failing_since} />
            </span>
          ) : (
            <span class="badge">enabled</span>
          )
        ) : (
          <span class="badge status-revoked" title={e.disabled_reason ?? undefined}>
            disabled
          </span>
        ),
    },
    {
      header: <span class="visually-hidden">Actions</span>,
      class: 'row-actions',
      cell: (e) => (
        <>
          <button type="button" onClick={() => set({ endpoint: e.id })} aria-label={`Deliveries of ${e.url}`}>
            Deliveries
          </button>
          <ActionButton
            busy={test.busy}
            busyText="Sending…"
            disabled={testing.off}
            describedBy={testing.describedBy}
            label={`Send a test event to ${e.url}`}
            onClick={() => void test.run(e)}
          >
            Send test
          </ActionButton>
          <ActionButton
            busy={toggle.busy}
            busyText="Saving…"
            disabled={write.off}
            describedBy={write.describedBy}
            onClick={() => void toggle.run(e)}
          >
            {e.enabled ? 'Disable' : 'Enable'}
          </ActionButton>
          <ActionButton
            busy={remove.busy}
            busyText="Deleting…"
            class="danger"
            disabled={write.off}
            describedBy={write.describedBy}
            onClick={() => void remove.run(e)}
          >
            Delete
          </ActionButton>
        </>
      ),
    },
  ];

  return (
    <>
      <div class="title-row">
        <h1>Webhooks</h1>
        {!adding && secret === null && (
          <button type="button" class="primary" disabled={write.off} aria-describedby={write.describedBy} onClick={() => setAdding(true)}>
            Add an endpoint
          </button>
        )}
      </div>
      {adding && (
        <AddEndpoint
          onCancel={() => setAdding(false)}
          onAdded={(url, signing) => {
            setAdding(false);
            setSecret({ url, secret: signing });
            endpoints.reload();
          }}
        />
      )}
      {write.note}
      {testing.note}
      {secret !== null && (
        <SecretOnce
          title={`Signing secret of ${secret.url}`}
          secret={secret.secret}
          noun="secret"
          label="Signing secret"
          kept="to-sign"
          onDone={() => setSecret(null)}
        >
          <p>The receiver verifies each message's webhook-signature with it (Standard Webhooks).</p>
        </SecretOnce>
      )}
      {status && <p role="status">{status}</p>}
      <ErrorNote error={test.error ?? toggle.error ?? remove.error} />
      <LoadState load={endpoints} what="webhook endpoints">
        {(data) => (
          <section class="card">
            <DataTable
              rows={data.webhooks}
              columns={columns}
              rowKey={(e) => e.id}
              rowAttributes={(e) => ({ 'data-webhook': e.id })}
              empty="No webhook endpoints yet."
              caption="Webhook endpoints"
            />
          </section>
        )}
      </LoadState>
      {selected !== '' && <Deliveries key={selected} endpointId={selected} />}
      {dialog}
    </>
  );
}

function AddEndpoint(props: { onCancel: () => void; onAdded: (url: string, secret: string) => void }) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['quota.warning', 'quota.exhausted']);
  const add = useAction(async () => {
    const created = await ok(
      api.client.POST('/admin/v1/webhooks', {
        body: { url, events, ...(description.trim() ? { description: description.trim() } : {}) },
      }),
    );
    props.onAdded(created.url, created.secret);
    return 'Added.';
  });
  return (
    <form
      class="card"
      aria-label="Add a webhook endpoint"
      onSubmit={(e) => {
        e.preventDefault();
        void add.run();
      }}
    >
      <h2>Add an endpoint</h2>
      <Field id="webhook-url" label="Address (https)">
        <input id="webhook-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </Field>
      <Field id="webhook-description" label="Description (optional)">
        <input id="webhook-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </Field>
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <label key={event} class="check">
            <input
              type="checkbox"
              name="events"
              value={event}
              checked={events.includes(event)}
              onChange={(e) => setEvents(e.currentTarget.checked ? [...events, event] : events.filter((x) => x !== event))}
            />{' '}
            {event}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={add.error} />
      <div class="form-actions">
        <ActionButton type="submit" class="primary" busy={add.busy} busyText="Adding…" disabled={events.length === 0}>
          Add
        </ActionButton>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One endpoint's recent deliveries, newest first, with a retry each. */
function Deliveries(props: { endpointId: string }) {
  const api = useApi();
  const retrying = useAllowance('webhooks.retry', 'webhooks-retry-refused');
  const endpoint = { id: props.endpointId };
  const deliveries = useLoad(
    (signal) => ok(api.client.GET('/admin/v1/webhooks/{id}/deliveries', { params: { path: endpoint, query: { limit: 50 } }, signal })),
    [props.endpointId],
  );
  const retry = useAction(async (delivery: WebhookDelivery) => {
    await ok(
      api.client.POST('/admin/v1/webhooks/{id}/deliveries/{delivery_id}/retry', {
        params: { path: { ...endpoint, delivery_id: delivery.id } },
      }),
    );
    deliveries.reload();
    return `Delivery ${delivery.id} is due again.`;
  });
  const columns: ReadonlyArray<Column<WebhookDelivery>> = [
    { header: 'Event', cell: (d) => d.event_type },
    { header: 'Status', cell: (d) => <span class={d.status === 'failed' ? 'badge status-revoked' : 'badge'}>{d.status}</span> },
    { header: 'Attempts', num: true, cell: (d) => d.attempts },
    { header: 'Last status', num: true, cell: (d) => d.last_status_code ?? '–' },
    { header: 'Last error', cell: (d) => d.last_error ?? '–' },
    { header: 'Next attempt', cell: (d) => <Time iso={d.next_attempt_at} /> },
    { header: 'Created', cell: (d) => <Time iso={d.created_at} /> },
    {
      header: <span class="visually-hidden">Actions</span>,
      class: 'row-actions',
      cell: (d) => (
        <ActionButton
          busy={retry.busy}
          busyText="Retrying…"
          disabled={retrying.off}
          describedBy={retrying.describedBy}
          label={`Retry ${d.id}`}
          onClick={() => void retry.run(d)}
        >
          Retry
        </ActionButton>
      ),
    },
  ];
  return (
    <section class="card" aria-labelledby="deliveries-title">
      <div class="title-row">
        <h2 id="deliveries-title">Recent deliveries</h2>
        <button type="button" onClick={deliveries.reload}>
          Refresh
        </button>
      </div>
      {retrying.note}
      {retry.done && <p role="status">{retry.done}</p>}
      <ErrorNote error={retry.error} />
      <LoadState load={deliveries} what="deliveries">
        {(data) => (
          <DataTable
            rows={data.deliveries}
            columns={columns}
            rowKey={(d) => d.id}
            rowAttributes={(d) => ({ 'data-delivery': d.id })}
            empty="No deliveries yet."
            caption="Deliveries, newest first"
          />
        )}
      </LoadState>
    </section>
  );
}
