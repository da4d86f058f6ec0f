import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { clearToken, storedToken, whenUnauthorized } from './api';
import { Link } from './components/Link';
import { Audit } from './pages/Audit';
import { KeyPage } from './pages/KeyPage';
import { Keys } from './pages/Keys';
import { Models } from './pages/Models';
import { Overview } from './pages/Overview';
import { SignIn } from './pages/SignIn';
import { BASE, usePath } from './router';
import './styles.css';

const PAGES = [
  { path: '', title: 'Overview' },
  { path: '/keys', title: 'Keys' },
  { path: '/models', title: 'Models' },
  { path: '/audit', title: 'Audit' },
] as const;

function Page(props: { path: string }) {
  const keyMatch = /^\/keys\/([^/]+)$/.exec(props.path);
  if (keyMatch) return <KeyPage keyId={decodeURIComponent(keyMatch[1])} />;
  switch (props.path) {
    case '':
      return <Overview />;
    case '/keys':
      return <Keys />;
    case '/models':
      return <Models />;
    case '/audit':
      return <Audit />;
    default:
      return (
        <>
          <h1>Not found</h1>
          <p>
            There is no such console page. <Link href={BASE}>Go to the overview.</Link>
          </p>
        </>
      );
  }
}

function App() {
  const [signedIn, setSignedIn] = useState(storedToken() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const path = usePath();
  const firstPath = useRef(path);
  // set while rendering, before any page's first call can be refused (effects run children first)
  whenUnauthorized(() => {
    clearToken();
    setNotice('The service refused the admin token: sign in again.');
    setSignedIn(false);
  });
  useEffect(() => {
    const current = PAGES.find((p) => p.path === path || (p.path !== '' && path.startsWith(`${p.path}/`)));
    document.title = `${current?.title ?? 'Console'} · svc-licensing`;
    // after a navigation inside the app, keyboard and screen-reader users start at the new page
    if (path !== firstPath.current) {
      firstPath.current = '\u0000';
      document.getElementById('main')?.focus();
    }
  }, [path]);
  if (!signedIn) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={() => {
          setNotice(null);
          setSignedIn(true);
        }}
      />
    );
  }
  const section = PAGES.find((p) => p.path !== '' && (path === p.path || path.startsWith(`${p.path}/`)))?.path ?? (path === '' ? '' : null);
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <span class="brand">svc-licensing</span>
        <nav aria-label="Console">
          {PAGES.map((p) => (
            <Link key={p.path} href={`${BASE}${p.path}`} current={section === p.path}>
              {p.title}
            </Link>
          ))}
        </nav>
        <button
          type="button"
          class="signout"
          onClick={() => {
            clearToken();
            setNotice('Signed out.');
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page key={path} path={path} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
