import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { AdminApi, ok, type Schema } from './api';
import { ErrorNote } from './components/ErrorNote';

const TOKEN_KEY = 'svc-console-admin-token';

/** GET /admin/v1/me: who is signed in, the role, the permissions it holds and, for each it lacks, the role needed. */
export type Me = Schema<'SessionResponse'>;

export interface Session {
  /** The admin API with this session's token; a 401 from it signs out, a 403 reads GET /me again. */
  readonly api: AdminApi;
  /** Who is signed in, with the role and what it may do (GET /admin/v1/me). */
  readonly me: Me;
  /**
   * Why the signed-in role cannot take an action needing `permission` (a name of the service's
   * permission table), or null when it can: decided here, from GET /me, for every page.
   */
  readonly refusal: (permission: string) => string | null;
  readonly signOut: (notice?: string) => void;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in session (inside SessionGate only). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}

export function useApi(): AdminApi {
  return useSession().api;
}

/** Who `me` is, in words: ADMIN_TOKEN is the bootstrap owner. */
export function whoIs(me: Me): string {
  return me.operator_id === null ? 'ADMIN_TOKEN (bootstrap)' : me.name;
}

/** The refusal of `permission` for `me`: held (null), lacking with the role needed, or unknown to the service (refused). */
export function refusalOf(me: Me, permission: string): string | null {
  if ((me.permissions as readonly string[]).includes(permission)) return null;
  const needed = me.denied[permission];
  return needed ? `Needs the ${needed} role (you are ${me.role}).` : `Not allowed for the ${me.role} role.`;
}

/**
 * An action's permission, for its controls: `off` disables them, `describedBy` points them at
 * `note`, the reason shown next to them (nothing when the role may act).
 */
export function useAllowance(permission: string, id: string) {
  const reason = useSession().refusal(permission);
  return {
    off: reason !== null,
    reason,
    describedBy: reason === null ? undefined : id,
    note:
      reason === null ? null : (
        <p class="reason" id={id} data-refused={permission}>
          {reason}
        </p>
      ),
  };
}

/**
 * Holds the admin token (session storage: this tab only, gone on sign-out or when the tab closes),
 * reads who it is (GET /admin/v1/me) and provides the session to `children`; without a token it
 * renders `signIn` with the notice of why. The sign-in page hands over the /me it checked the
 * token with; a reload reads it again.
 */
export function SessionGate(props: {
  children: ComponentChildren;
  signIn: (notice: string | null, signIn: (token: string, me: Me) => void) => ComponentChildren;
}) {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [me, setMe] = useState<Me | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = useCallback((why = 'Signed out.') => {
    sessionStorage.removeItem(TOKEN_KEY);
    setNotice(why);
    setMe(null);
    setToken(null);
  }, []);
  const reread = useCallback(() => setRound((n) => n + 1), []);
  const api = useMemo(
    () => (token === null ? null : new AdminApi(token, () => signOut('The service refused the admin token: sign in again.'), reread)),
    [token, signOut, reread],
  );
  useEffect(() => {
    if (api === null || (me !== null && round === 0)) return;
    const controller = new AbortController();
    setFailure(null);
    ok(api.client.GET('/admin/v1/me', { signal: controller.signal })).then(
      (answer) => !controller.signal.aborted && setMe(answer),
      (error: unknown) => !controller.signal.aborted && setFailure(error),
    );
    return () => controller.abort();
  }, [api, round]);
  const session = useMemo<Session | null>(
    () => (api === null || me === null ? null : { api, me, refusal: (permission) => refusalOf(me, permission), signOut }),
    [api, me, signOut],
  );
  if (api === null) {
    return (
      <>
        {props.signIn(notice, (accepted, who) => {
          sessionStorage.setItem(TOKEN_KEY, accepted);
          setNotice(null);
          setMe(who);
          setRound(0);
          setToken(accepted);
        })}
      </>
    );
  }
  if (session === null) {
    return (
      <main class="signin">
        <h1>svc-licensing console</h1>
        <p role="status" class="muted">
          {failure === null ? 'Signing in…' : ''}
        </p>
        {failure !== null && (
          <div class="load-error">
            <ErrorNote error={failure} />
            <button type="button" onClick={reread}>
              Retry
            </button>
            <button type="button" onClick={() => signOut()}>
              Sign out
            </button>
          </div>
        )}
      </main>
    );
  }
  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>;
}
