import { type DatabaseConfig } from './app-config';

/** Query parameters of a database URL whose values are secrets (or may be): shown as `***`. */
const SECRET_PARAMETER = /pass|secret|token|key/i;

/**
 * Which database a configuration names, to tell an operator (the CLI says it
 * on stderr): `sqlite /abs/path/service.db`, or the server's kind and URL
 * with its password, and any query parameter that may hold a secret, masked
 * (`postgres postgres://svc:***@db:5432/keys`). Never a password.
 */
export function databaseLabel(database: DatabaseConfig): string {
  // a file (SQLite) is named by its path; a server by its URL
  if ('path' in database) return `${database.kind} ${database.path}`;
  let url: URL;
  try {
    url = new URL(database.url);
  } catch {
    return `${database.kind} (its URL does not parse as a URL; not shown)`;
  }
  if (url.password !== '') url.password = '***';
  for (const name of [...new Set(url.searchParams.keys())]) {
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, '***');
  }
  return `${database.kind} ${url.toString()}`;
}
