import { useState } from 'preact/hooks';
import { AdminApi, ApiError, ok } from '../api';
import type { Me } from '../session';
import { ErrorNote } from '../components/ErrorNote';

/**
 * An operator's admin token (svc_admin_…) or ADMIN_TOKEN, checked with GET /admin/v1/me (who it is,
 * the role) before it is kept (sessionStorage: this tab only, gone when the tab closes or on
 * sign-out). It travels only as the bearer header.
 */
export function SignIn(props: { notice: string | null; onSignedIn: (token: string, me: Me) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const me = await ok(new AdminApi(token.trim()).client.GET('/admin/v1/me'));
      setToken('');
      props.onSignedIn(token.trim(), me);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401)
        setError('Wrong admin token: the service refused it (a wrong, replaced or disabled token).');
      else if (failure instanceof ApiError && failure.status === 404)
        setError('The admin API is not enabled on this service (no ADMIN_TOKEN and no enabled operator).');
      else setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>svc-licensing console</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)} class="card" autocomplete="off">
        <label for="admin-token">Admin token</label>
        <input
          id="admin-token"
          name="admin-token"
          type="password"
          required
          autocomplete="off"
          spellcheck={false}
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <p class="muted">
          Your operator token (<code>svc_admin_…</code>) or the service's ADMIN_TOKEN. Kept in this tab only (session storage) until you
          sign out.
        </p>
        <button type="submit" class="primary" disabled={busy || token.trim() === ''} aria-busy={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}
