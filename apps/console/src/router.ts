import { useLocation } from 'preact-iso';
import { useCallback } from 'preact/hooks';

/**
 * The console's addresses, under /console (the service answers index.html for each: deep links
 * work). Every page's state worth sharing (filters, the pages seen) is in its query string, so
 * Back and Forward restore it and a copied address opens the same view.
 */
export const BASE = '/console';

export type Params = Record<string, string | undefined>;

/** A path with the non-empty parameters as its query string. */
export function withQuery(path: string, params: Params = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, value);
  return query.size > 0 ? `${path}?${query.toString()}` : path;
}

export const paths = {
  overview: () => BASE,
  keys: (params?: Params) => withQuery(`${BASE}/keys`, params),
  key: (keyId: string, params?: Params) => withQuery(`${BASE}/keys/${encodeURIComponent(keyId)}`, params),
  nearQuota: (params?: Params) => withQuery(`${BASE}/near-quota`, params),
  models: () => `${BASE}/models`,
  audit: (params?: Params) => withQuery(`${BASE}/audit`, params),
  webhooks: (params?: Params) => withQuery(`${BASE}/webhooks`, params),
  operators: () => `${BASE}/operators`,
};

/** The route patterns (preact-iso), one per page. */
export const ROUTES = {
  overview: BASE,
  keys: `${BASE}/keys`,
  key: `${BASE}/keys/:keyId`,
  nearQuota: `${BASE}/near-quota`,
  models: `${BASE}/models`,
  audit: `${BASE}/audit`,
  webhooks: `${BASE}/webhooks`,
  operators: `${BASE}/operators`,
} as const;

/**
 * This page's query string, and a way to change it: a new history entry (Back returns), keeping the
 * path. `set` replaces every parameter with the ones given.
 */
export function useQuery(): { query: Params; set: (params: Params) => void } {
  const location = useLocation();
  const set = useCallback((params: Params) => location.route(withQuery(location.path, params)), [location]);
  return { query: location.query, set };
}
