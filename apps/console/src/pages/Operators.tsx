import { useState } from 'preact/hooks';
import { ok, ROLES, type Schema } from '../api';
import { useAction } from '../action';
import { ActionButton } from '../components/ActionButton';
import { useConfirm } from '../components/Confirm';
import { DataTable } from '../components/DataTable';
import { ErrorNote } from '../components/ErrorNote';
import { Choice, Field } from '../components/Field';
import { LoadState } from '../components/LoadState';
import { SecretOnce } from '../components/SecretOnce';
import { Time } from '../components/Time';
import { useLoad } from '../load';
import { useAllowance, useSession } from '../session';

type AdminOperator = Schema<'OperatorResponse'>;
type AdminOperatorWithToken = Schema<'OperatorWithTokenResponse'>;
type Role = AdminOperator['role'];

/** A new operator's token, or one replaced: shown once. */
interface Shown {
  readonly title: string;
  readonly operator: AdminOperatorWithToken;
}

/**
 * Operators (CONTRACT 21), for owners: every operator with role, status and last use; create one
 * (its admin token shown once), change a role, disable or enable, replace a token (shown once; the
 * earlier one stops at once). Other roles see why they cannot (the session's reason).
 */
export function Operators() {
  const manage = useAllowance('operators.manage', 'operators-refused');
  return (
    <>
      <h1>Operators</h1>
      {manage.off ? (
        <section class="card">
          {manage.note}
          <p class="muted">Operators and their tokens are managed by an owner.</p>
          <button type="button" disabled aria-describedby={manage.describedBy}>
            Create an operator
          </button>
        </section>
      ) : (
        <OperatorsList />
      )}
    </>
  );
}

function OperatorsList() {
  const { api, me } = useSession();
  const operators = useLoad((signal) => ok(api.client.GET('/admin/v1/operators', { signal })), []);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const { dialog, ask } = useConfirm();
  const [busyRow, setBusyRow] = useState<string | null>(null);

  const change = useAction(
    async (operator: AdminOperator, body: Schema<'UpdateOperatorRequest'>, done: string) => {
      setBusyRow(operator.operator_id);
      try {
        await ok(api.client.PATCH('/admin/v1/operators/{operator_id}', { params: { path: { operator_id: operator.operator_id } }, body }));
      } finally {
        setBusyRow(null);
      }
      operators.reload();
      return done;
    },
    (operator, body) =>
      'role' in body
        ? ask('Change the role', `Make ${operator.name} ${String(body.role)} (now ${operator.role})?`, 'Change role')
        : body.disabled
          ? ask('Disable the operator', `Disable ${operator.name}? Their token is refused at once on every instance.`, 'Disable', true)
          : ask('Enable the operator', `Enable ${operator.name} again? Their current token works again.`, 'Enable'),
  );
  const replace = useAction(
    async (operator: AdminOperator) => {
      setBusyRow(operator.operator_id);
      try {
        const answer = await ok(
          api.client.POST('/admin/v1/operators/{operator_id}/token', { params: { path: { operator_id: operator.operator_id } } }),
        );
        setShown({ title: `New token for ${operator.name}`, operator: answer });
      } finally {
        setBusyRow(null);
      }
      return `${operator.name} has a new token.`;
    },
    (operator) =>
      ask(
        'Replace the token',
        `Give ${operator.name} a new token? The one they use now is refused at once on every instance; the new one is shown once.`,
        'Replace token',
        true,
      ),
  );

  return (
    <>
      <div class="title-row">
        <p class="muted">Each person or system with its own admin token and role. Audit entries name them.</p>
        {!creating && !shown && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            Create an operator
          </button>
        )}
      </div>
      {shown && (
        <SecretOnce
          title={shown.title}
          secret={shown.operator.token}
          noun="token"
          label="Admin token"
          onDone={() => {
            setShown(null);
            operators.reload();
          }}
        >
          <p>
            {shown.operator.name} ({shown.operator.role}) signs in to the console with this token, or sends it to the admin API as{' '}
            <code>Authorization: Bearer &lt;token&gt;</code>
          </p>
        </SecretOnce>
      )}
      {creating && (
        <CreateOperatorForm
          onCancel={() => setCreating(false)}
          onCreated={(operator) => {
            setCreating(false);
            setShown({ title: `Operator ${operator.name} created: the token`, operator });
            operators.reload();
          }}
        />
      )}
      <ErrorNote error={change.error ?? replace.error} />
      {(change.done ?? replace.done) && <p role="status">{change.done ?? replace.done}</p>}
      <section class="card" aria-labelledby="operators-title">
        <h2 id="operators-title" class="visually-hidden">
          Every operator
        </h2>
        <LoadState load={operators} what="operators">
          {(data) => (
            <DataTable
              class="operators"
              rows={data.operators}
              rowKey={(o) => o.operator_id}
              rowAttributes={(o) => ({ 'data-operator': o.operator_id })}
              empty="No operator yet: ADMIN_TOKEN is the only way in."
              columns={[
                {
                  header: 'Name',
                  cell: (o) => (
                    <>
                      {o.name}
                      {o.operator_id === me.operator_id && <span class="muted"> (you)</span>}
                      <div class="muted">
                        <code>{o.operator_id}</code>
                      </div>
                    </>
                  ),
                },
                { header: 'E-mail', cell: (o) => o.email ?? '–' },
                { header: 'Role', cell: (o) => <span data-testid="operator-role">{o.role}</span> },
                {
                  header: 'Status',
                  cell: (o) =>
                    o.disabled_at ? <span class="badge status-revoked">disabled</span> : <span class="badge status-active">enabled</span>,
                },
                { header: 'Last used', cell: (o) => <Time iso={o.last_used_at} /> },
                { header: 'Created', cell: (o) => <Time iso={o.created_at} /> },
                {
                  header: <span class="visually-hidden">Actions</span>,
                  class: 'row-actions',
                  cell: (o) => (
                    <OperatorActions
                      operator={o}
                      busy={busyRow === o.operator_id}
                      locked={change.busy || replace.busy}
                      onRole={(role) => void change.run(o, { role: role as Role }, `${o.name} is now ${role}.`)}
                      onDisabled={(disabled) => void change.run(o, { disabled }, `${o.name} ${disabled ? 'disabled' : 'enabled'}.`)}
                      onNewToken={() => void replace.run(o)}
                    />
                  ),
                },
              ]}
            />
          )}
        </LoadState>
      </section>
      {dialog}
    </>
  );
}

function OperatorActions(props: {
  operator: AdminOperator;
  busy: boolean;
  locked: boolean;
  onRole: (role: string) => void;
  onDisabled: (disabled: boolean) => void;
  onNewToken: () => void;
}) {
  const o = props.operator;
  const [role, setRole] = useState<string>(o.role);
  const id = `role-${o.operator_id}`;
  return (
    <>
      <label class="visually-hidden" for={id}>
        Role of {o.name}
      </label>
      <Choice id={id} value={role} options={ROLES} onChange={setRole} />
      <ActionButton
        busy={false}
        busyText="Working…"
        disabled={props.locked || role === o.role}
        label={`Change the role of ${o.name}`}
        onClick={() => props.onRole(role)}
      >
        Change role
      </ActionButton>
      <ActionButton
        class={o.disabled_at ? undefined : 'danger'}
        busy={props.busy}
        busyText="Working…"
        disabled={props.locked}
        label={`${o.disabled_at ? 'Enable' : 'Disable'} ${o.name}`}
        onClick={() => props.onDisabled(o.disabled_at === null)}
      >
        {o.disabled_at ? 'Enable' : 'Disable'}
      </ActionButton>
      <ActionButton busy={false} busyText="Working…" disabled={props.locked} label={`New token for ${o.name}`} onClick={props.onNewToken}>
        New token
      </ActionButton>
    </>
  );
}

/** POST /admin/v1/operators: name, optional e-mail, role; the answer carries the token, shown once. */
function CreateOperatorForm(props: { onCancel: () => void; onCreated: (operator: AdminOperatorWithToken) => void }) {
  const { api } = useSession();
  const [form, setForm] = useState({ name: '', email: '', role: 'support' });
  const create = useAction(async () => {
    const body: Schema<'CreateOperatorRequest'> = { name: form.name.trim(), role: form.role as Role };
    if (form.email.trim()) body.email = form.email.trim();
    props.onCreated(await ok(api.client.POST('/admin/v1/operators', { body })));
    return 'Created.';
  });
  return (
    <form
      class="card form"
      aria-labelledby="create-operator-title"
      onSubmit={(event) => {
        event.preventDefault();
        void create.run();
      }}
    >
      <h2 id="create-operator-title">Create an operator</h2>
      <div class="form-grid">
        <Field id="operator-name" label="Name">
          <input
            id="operator-name"
            required
            maxLength={200}
            value={form.name}
            onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
        </Field>
        <Field id="operator-email" label="E-mail (optional)">
          <input id="operator-email" type="email" value={form.email} onInput={(e) => setForm({ ...form, email: e.currentTarget.value })} />
        </Field>
        <Field id="operator-role" label="Role">
          <Choice id="operator-role" value={form.role} options={ROLES} onChange={(role) => setForm({ ...form, role })} />
        </Field>
      </div>
      <ErrorNote error={create.error} />
      <div class="actions">
        <button type="button" onClick={props.onCancel} disabled={create.busy}>
          Cancel
        </button>
        <ActionButton type="submit" class="primary" busy={create.busy} busyText="Creating…">
          Create the operator
        </ActionButton>
      </div>
    </form>
  );
}
