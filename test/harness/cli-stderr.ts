/** How the CLI's first line on stderr begins: which database it works on (apps/cli/src/main.ts). */
export const CLI_DATABASE_LINE = 'svc-licensing CLI: database ';

/**
 * The CLI's stderr taken apart: the line naming the database (null when the
 * run never got that far, e.g. an invalid configuration) and everything after
 * it, which is what a command writes itself (refusals, help).
 */
export function splitCliStderr(stderr: string): { database: string | null; rest: string } {
  if (!stderr.startsWith(CLI_DATABASE_LINE)) return { database: null, rest: stderr };
  const end = stderr.indexOf('\n');
  return end === -1 ? { database: stderr, rest: '' } : { database: stderr.slice(0, end), rest: stderr.slice(end + 1) };
}

/**
 * The line the CLI should write for a test database's URL (the tests' URLs carry no password):
 * `svc-licensing CLI: database sqlite /abs/path.db`, `... postgres postgres://...`, `... mysql mysql://...`.
 */
export function expectedDatabaseLine(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) return `${CLI_DATABASE_LINE}sqlite ${databaseUrl.slice('sqlite:'.length)}`;
  const url = new URL(databaseUrl);
  if (url.password !== '') throw new Error('expectedDatabaseLine: a URL with a password is shown masked; spell the line out');
  return `${CLI_DATABASE_LINE}${url.protocol === 'mysql:' ? 'mysql' : 'postgres'} ${url.toString()}`;
}

/**
 * The JSON a `--json` run printed, after checking that it succeeded and wrote nothing to stderr but
 * the line naming the database at `databaseUrl` (so stdout is the JSON alone, as scripts read it).
 */
export function printedJson(
  ran: { code: number | null; stdout: string; stderr: string; database: string | null },
  databaseUrl: string,
): any {
  expect({ code: ran.code, database: ran.database, stderr: ran.stderr }).toEqual({
    code: 0,
    database: expectedDatabaseLine(databaseUrl),
    stderr: '',
  });
  return JSON.parse(ran.stdout);
}
