import type { DatabaseConfig } from '@svc/config';
import { randomBytes } from 'node:crypto';
import type { DataSource, DataSourceOptions } from 'typeorm';
import { type Libraries } from '../built-service';

/**
 * What the benchmark needs of one database, in one file per database (`bench/dialects/<database>.ts`,
 * listed in `bench/dialects/index.ts`): a fresh database for a run, the service's data source options,
 * a bulk writer, the planner's statistics after a bulk load, the analytics event's values as written,
 * and the storage of the two ceilings. The rest of `bench/` never asks which database runs.
 */
export interface BenchDialect {
  readonly kind: DatabaseConfig['kind'];
  /** The command-line flag that picks it (`--pg`, `--mysql`); null for SQLite, the default. */
  readonly flag: string | null;
  /** The DATABASE_URLs of this database (a run on one picks it when no flag is given). */
  readonly urls: RegExp;
  /** A fresh database for one run (`folder`: the run's own folder; `databaseUrl`: the caller's DATABASE_URL). */
  freshDatabase(folder: string, databaseUrl: string): Promise<BenchDatabase>;
  /** The service's own data source options for it (exported by the library, the bench's one door into it). */
  dataSourceOptions(lib: Libraries, database: DatabaseConfig): DataSourceOptions;
  /** The bulk writer of the database at `url`: its own connection on a server, the data source's on SQLite. */
  tableWriter(url: string, dataSource: DataSource): Promise<TableWriter>;
  /** The planner's statistics after a bulk load of `tables` (and, with `vacuum`, autovacuum's steady state at once). */
  analyze(dataSource: DataSource, tables: readonly string[], vacuum: boolean): Promise<void>;
  /** An analytics event's `success` and `received_at` as the bulk writer writes them. */
  readonly eventValues: { success(ok: boolean): unknown; instant(at: Date): unknown };
  /** The full ceiling's storage (`bench/ceiling-server.ts`). */
  ceilingStorage(url: string, poolSize: number): CeilingStorage;
  /** The bare ceiling's storage (`bench/bare-ceiling-server.ts`), where it reads this database. */
  bareCeilingStorage?(url: string, poolSize: number): BareCeilingStorage;
}

/** The database of one benchmark run: a new SQLite file, or a new database on a server, dropped afterwards. */
export interface BenchDatabase {
  readonly kind: DatabaseConfig['kind'];
  readonly url: string;
  /** For the report: never a password. */
  readonly label: string;
  /**
   * Which command lines (of `ps`) are the database server's processes working
   * for this run (their CPU counts as the benchmark's); none for SQLite, which
   * runs inside the service.
   */
  readonly serverProcess?: (commandLine: string) => boolean;
  /** Whether `bench/bare-ceiling-server.ts` reads this database. */
  readonly hasBareCeiling: boolean;
  drop(): Promise<void>;
}

/** Writes rows of one table, in the column order of `columns`. */
export interface TableWriter {
  begin(): Promise<void>;
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  commit(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Rows per multi-row INSERT on a server (keys have 11 columns: 22,000 parameters,
 * under PostgreSQL's 65,535; about 0.6 MB of SQL text on MySQL, under its max_allowed_packet).
 */
export const ROWS_PER_INSERT = 2000;

/** The hosts a benchmark loads: this machine only. */
const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/** How a database server makes and drops a benchmark's database (its admin connection runs `run`). */
export interface ServerDatabaseKind {
  readonly kind: DatabaseConfig['kind'];
  /** The server's name in messages and labels. */
  readonly server: string;
  readonly hasBareCeiling: boolean;
  create(name: string): string;
  drop(name: string): string;
  /** Which command lines of `ps` work for the database `name`. */
  serverProcess(name: string): (commandLine: string) => boolean;
  /** Runs one statement on a connection to `adminUrl`'s own database. */
  run(adminUrl: string, sql: string): Promise<void>;
}

/**
 * The database of one run on the server `adminUrl` names, on this machine only (its own database is
 * only connected to, never written): created here, dropped by `drop()` (once, however often called).
 */
export async function freshServerDatabase(adminUrl: string, server: ServerDatabaseKind): Promise<BenchDatabase> {
  if (!LOCAL_HOSTS.includes(new URL(adminUrl).hostname)) {
    throw new Error(`the benchmark only loads a ${server.server} server on this machine (127.0.0.1)`);
  }
  const name = `svc_bench_${randomBytes(6).toString('hex')}`;
  await server.run(adminUrl, server.create(name));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    kind: server.kind,
    url: url.toString(),
    hasBareCeiling: server.hasBareCeiling,
    label: `${server.server} database ${name} on ${url.host} (created for this run, dropped after)`,
    serverProcess: server.serverProcess(name),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await server.run(adminUrl, server.drop(name));
    },
  };
}

export type Tier = 'free' | 'research' | 'commercial' | 'enterprise';

export interface CeilingKeyRow {
  id: string;
  user_id: string;
  environment: string;
  license_type: Tier;
  expires_at: string | Date;
  revoked_at: string | Date | null;
  monthly_limit_source: string;
  monthly_limit: string | number | null;
}
export interface CeilingContextRow extends CeilingKeyRow {
  email: string;
  name: string | null;
  organization: string | null;
  used: string | number | null;
}
export interface CeilingModelRow {
  name: string;
  version: string;
  type: string;
  paradigm: string;
  n_features: number;
  n_classes: number;
  size_bytes: string | number | null;
  checksum: string | null;
  download_url: string | null;
  stored_file: string | null;
  requires_license: string;
  owner_user_id: string | null;
  metadata: string;
}

/**
 * The full ceiling's storage work. Counters are per license (CONTRACT 16); the
 * seeded keys are never rotated, so each is its own license and the ceiling
 * consumes on the key's id (the event's `key_id`) as the license id. An event's
 * values are EVENT_COLUMNS' in order, `success` a boolean or null and `received_at` a Date.
 */
export interface CeilingStorage {
  context(digest: string, period: string): Promise<CeilingContextRow | undefined>;
  key(digest: string): Promise<CeilingKeyRow | undefined>;
  appendConsuming(values: unknown[], cost: number, limit: number | null): Promise<number | null>;
  models(): Promise<CeilingModelRow[]>;
  ping(): Promise<void>;
}

export interface BareKeyRow {
  id: string;
  license_id: string;
  environment: string;
  license_type: string;
  monthly_limit_source: string;
  monthly_limit: string | number | null;
  [column: string]: unknown;
}

/** The bare ceiling's storage work: one prepared read and one consumption step. */
export interface BareCeilingStorage {
  key(digest: string): Promise<BareKeyRow | undefined>;
  /**
   * The event's 12 column values (EVENT_COLUMNS', `success` a boolean or null, `received_at` a Date), the
   * license and the limit, at a cost of 1: the new total, or null when refused.
   */
  consume(values: unknown[], license: string, limit: number | null): Promise<number | null>;
}

export const CEILING_KEY_COLUMNS =
  'k.id, k.user_id, k.environment, k.license_type, k.expires_at, k.revoked_at, k.monthly_limit_source, k.monthly_limit';
export const CEILING_EVENT_COLUMNS =
  'id, key_id, environment, event_type, model_name, inference_type, duration_ms, success, error_message, metadata, period, received_at';
