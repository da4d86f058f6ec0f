import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useMemo, useState } from 'preact/hooks';
import { AdminApi } from './api';

const TOKEN_KEY = 'svc-console-admin-token';

/**
 * Who is signed in. Today an operator is only an admin token; `operator` is the room for what the
 * service will say about them (GET /admin/v1/me: id, name, role) once it has operators, so pages
 * can ask `session.operator?.role` without another way of passing it down.
 */
export interface Operator {
  readonly operatorId: string;
  readonly name: string;
  readonly role: string;
}

export interface Session {
  /** The admin API with this session's token; a 401 from it signs out. */
  readonly api: AdminApi;
  /** Not known yet (no GET /admin/v1/me): always null for now. */
  readonly operator: Operator | null;
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

/**
 * Holds the admin token (session storage: this tab only, gone on sign-out or when the tab closes) and
 * provides the session to `children`; without a token it renders `signIn` with the notice of why.
 */
export function SessionGate(props: {
  children: ComponentChildren;
  signIn: (notice: string | null, signIn: (token: string) => void) => ComponentChildren;
}) {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = useCallback((why = 'Signed out.') => {
    sessionStorage.removeItem(TOKEN_KEY);
    setNotice(why);
    setToken(null);
  }, []);
  const session = useMemo<Session | null>(
    () =>
      token === null
        ? null
        : { api: new AdminApi(token, () => signOut('The service refused the admin token: sign in again.')), operator: null, signOut },
    [token, signOut],
  );
  if (!session) {
    return (
      <>
        {props.signIn(notice, (accepted) => {
          sessionStorage.setItem(TOKEN_KEY, accepted);
          setNotice(null);
          setToken(accepted);
        })}
      </>
    );
  }
  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>;
}
