import { render } from 'preact';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useRef } from 'preact/hooks';
import { Audit } from './pages/Audit';
import { KeyPage } from './pages/KeyPage';
import { Keys } from './pages/Keys';
import { Models } from './pages/Models';
import { NearQuota } from './pages/NearQuota';
import { Operators } from './pages/Operators';
import { Overview } from './pages/Overview';
import { SignIn } from './pages/SignIn';
import { Webhooks } from './pages/Webhooks';
import { BASE, ROUTES, paths } from './router';
import { SessionGate, useSession, whoIs } from './session';
import './styles.css';

const SECTIONS = [
  { href: paths.overview(), title: 'Overview', owns: [ROUTES.overview, ROUTES.nearQuota] },
  { href: paths.keys(), title: 'Keys', owns: [ROUTES.keys] },
  { href: paths.models(), title: 'Models', owns: [ROUTES.models] },
  { href: paths.audit(), title: 'Audit', owns: [ROUTES.audit] },
  { href: paths.webhooks(), title: 'Webhooks', owns: [ROUTES.webhooks] },
  { href: paths.operators(), title: 'Operators', owns: [ROUTES.operators] },
] as const;

const TITLES: Record<string, string> = {
  [ROUTES.nearQuota]: 'Near quota',
};

function sectionOf(path: string) {
  return SECTIONS.find((s) => s.owns.some((p) => path === p || (p !== BASE && path.startsWith(`${p}/`))));
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no such console page. <a href={paths.overview()}>Go to the overview.</a>
      </p>
    </>
  );
}

function KeyRoute(props: { keyId?: string }) {
  return <KeyPage key={props.keyId} keyId={props.keyId ?? ''} />;
}

/** The signed-in console: navigation, who is signed in with which role (GET /me), sign-out, the page of the address. */
function Console() {
  const session = useSession();
  const { path } = useLocation();
  const firstPath = useRef(path);
  const section = sectionOf(path);
  useEffect(() => {
    document.title = `${TITLES[path] ?? section?.title ?? 'Console'} · svc-licensing`;
    // after a navigation inside the app, keyboard and screen-reader users start at the new page
    if (path !== firstPath.current) {
      firstPath.current = '\u0000';
      document.getElementById('main')?.focus();
    }
  }, [path]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <span class="brand">svc-licensing</span>
        <nav aria-label="Console">
          {SECTIONS.map((s) => (
            <a key={s.href} href={s.href} aria-current={section === s ? 'page' : undefined}>
              {s.title}
            </a>
          ))}
        </nav>
        <p class="who" data-testid="signed-in">
          <span class="visually-hidden">Signed in as </span>
          <span data-testid="signed-in-name">{whoIs(session.me)}</span>{' '}
          <span class="badge role" data-testid="signed-in-role">
            {session.me.role}
          </span>
        </p>
        <button type="button" class="signout" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Router>
          <Route path={ROUTES.overview} component={Overview} />
          <Route path={ROUTES.keys} component={Keys} />
          <Route path={ROUTES.key} component={KeyRoute} />
          <Route path={ROUTES.nearQuota} component={NearQuota} />
          <Route path={ROUTES.models} component={Models} />
          <Route path={ROUTES.audit} component={Audit} />
          <Route path={ROUTES.webhooks} component={Webhooks} />
          <Route path={ROUTES.operators} component={Operators} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </>
  );
}

function App() {
  return (
    <LocationProvider scope={BASE}>
      <SessionGate signIn={(notice, signIn) => <SignIn notice={notice} onSignedIn={signIn} />}>
        <Console />
      </SessionGate>
    </LocationProvider>
  );
}

render(<App />, document.getElementById('app')!);
