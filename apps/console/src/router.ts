import { useEffect, useState } from 'preact/hooks';

/** The console's own paths, under /console (the service answers index.html for each: deep links work). */
export const BASE = '/console';

const CHANGED = 'console:navigate';

export function navigate(path: string): void {
  if (`${location.pathname}${location.search}` !== path) history.pushState(null, '', path);
  dispatchEvent(new Event(CHANGED));
}

/** The current path under BASE ('' for the overview), re-rendered on navigation and Back/Forward. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    addEventListener('popstate', update);
    addEventListener(CHANGED, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(CHANGED, update);
    };
  }, []);
  return path.startsWith(BASE) ? path.slice(BASE.length).replace(/\/+$/, '') : '';
}

export function keyPath(keyId: string): string {
  return `${BASE}/keys/${encodeURIComponent(keyId)}`;
}
