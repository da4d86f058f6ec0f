import { type BenchDialect } from './dialect';
import { MYSQL } from './mysql';
import { POSTGRES } from './postgres';
import { SQLITE } from './sqlite';

export * from './dialect';

/** Every database the benchmark runs on; SQLite, the default, first. A new database adds its dialect here. */
export const BENCH_DIALECTS: readonly BenchDialect[] = [SQLITE, POSTGRES, MYSQL];

/**
 * The database a run is on: the one whose flag `argv` gives (`--pg`, `--mysql`; two are refused), else
 * the one of DATABASE_URL (`databaseUrl`), else SQLite.
 */
export function chosenDialect(argv: readonly string[], databaseUrl: string): BenchDialect {
  const flagged = BENCH_DIALECTS.filter((dialect) => dialect.flag !== null && argv.includes(dialect.flag));
  if (flagged.length > 1) throw new Error(`${flagged.map((dialect) => dialect.flag).join(' and ')} exclude each other`);
  return flagged[0] ?? BENCH_DIALECTS.find((dialect) => dialect.flag !== null && dialect.urls.test(databaseUrl)) ?? BENCH_DIALECTS[0];
}

/** The dialect of a database kind. */
export function dialectOfKind(kind: BenchDialect['kind']): BenchDialect {
  const dialect = BENCH_DIALECTS.find((candidate) => candidate.kind === kind);
  if (!dialect) throw new Error(`no benchmark dialect for ${kind}`);
  return dialect;
}

/** The dialect of a DATABASE_URL (the ceilings are started with one). */
export function dialectOfUrl(url: string): BenchDialect {
  const dialect = BENCH_DIALECTS.find((candidate) => candidate.urls.test(url));
  if (!dialect) throw new Error(`no benchmark dialect reads ${url.split(':')[0]}: URLs`);
  return dialect;
}
