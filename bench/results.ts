/**
 * The record of one bench run, as the bench writes it into bench/results/ (one JSON file per run,
 * named by its start and database, e.g. `2026-11-28T06-10-00Z-sqlite.json`) and, with `--json FILE`,
 * into FILE too. `npm run bench:report` (bench/report.ts) reads them back and draws the history.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '@svc/config';

export type { DatabaseKind };
/** The version of the shape below; a reader refuses any other. */
export const RESULTS_SCHEMA = 1;

export const DATABASE_KINDS: readonly DatabaseKind[] = ['sqlite', 'postgres', 'mysql'];

/** What ran the bench; null where a record converted from an older report does not say. */
export interface Machine {
  readonly cpu: string | null;
  readonly cores: number | null;
  readonly memory_gib: number | null;
  readonly os: string | null;
  readonly node: string | null;
}

/** One server on one endpoint: medians over the rounds (req/s; latency in ms; CPU µs per answered request). */
export interface ServerStats {
  readonly rps: number | null;
  readonly p50: number | null;
  readonly p99: number | null;
  readonly cpu: number | null;
  readonly errors?: number;
  readonly non2xx?: number;
  readonly requests?: number;
}

/** One endpoint of a run: the service and the two ceilings, and the ratios of the service's req/s to theirs. */
export interface EndpointSummary {
  readonly service: ServerStats;
  /** The bare ceiling (bench/bare-ceiling-server.ts): validate and analytics, SQLite and PostgreSQL. */
  readonly bare: ServerStats | null;
  /** The full ceiling (bench/ceiling-server.ts). */
  readonly ceiling: ServerStats | null;
  /** service / full ceiling: the median over rounds of the ratio in each round. */
  readonly ratio: number | null;
  readonly ratios?: readonly number[];
  /** service / bare ceiling, likewise: the headline. */
  readonly bare_ratio: number | null;
  readonly bare_ratios?: readonly number[];
  readonly paced?: Readonly<Record<string, unknown>>;
}

interface ResultHeader {
  readonly schema: typeof RESULTS_SCHEMA;
  /** When the run started (ISO 8601). */
  readonly date: string;
  readonly database: DatabaseKind;
  readonly machine: Machine;
  /** `git rev-parse HEAD` of the tree the bench ran from, or null. */
  readonly commit: string | null;
  /** Whether tracked files differed from that commit. */
  readonly commit_dirty?: boolean;
  /** Where a record came from when the bench did not write it. */
  readonly source?: string;
  /** What the run was, in a few words, when something beyond the options says it (e.g. "before", a build). */
  readonly label?: string;
  readonly note?: string;
}

/** `npm run bench`: the hot path against the ceilings. */
export interface HotPathResult extends ResultHeader {
  readonly kind: 'hot-path';
  readonly options: Readonly<Record<string, unknown>>;
  readonly seeding_seconds: number | null;
  /** Endpoint name (validate, analytics, models, health) to its figures. */
  readonly summary: Readonly<Record<string, EndpointSummary>>;
  readonly measurements: readonly unknown[];
  readonly paced: readonly unknown[];
  /** The service's licenses signed during the run, on the request path and ahead (issue 40); absent in runs before it. */
  readonly license_signatures?: { readonly request: number; readonly ahead: number } | null;
  readonly rss_peak_mib: number | null;
  readonly bare_rss_peak_mib: number | null;
  readonly ceiling_rss_peak_mib: number | null;
  readonly start_to_healthy_ms: readonly number[];
  readonly failures: number | null;
}

/** One admin read of `npm run bench -- --admin-scale`, in ms from request to the last byte. */
export interface AdminReadTiming {
  readonly label: string;
  readonly median: number;
  readonly p95: number | null;
  readonly max: number | null;
  readonly failures: number | null;
}

/** `npm run bench -- --admin-scale`: the console's reads on a seeded database. */
export interface AdminScaleResult extends ResultHeader {
  readonly kind: 'admin-scale';
  readonly options: Readonly<Record<string, unknown>>;
  readonly seeding_seconds: number | null;
  readonly start_to_healthy_ms: readonly number[];
  /** The 1-minute load average before and after the reads. */
  readonly load_average: { readonly before: number; readonly after: number } | null;
  readonly reads: readonly AdminReadTiming[];
  readonly failures: number | null;
}

export type BenchResult = HotPathResult | AdminScaleResult;

/** This machine, as the bench's header line prints it. */
export function thisMachine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? null,
    cores: cpu.length,
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
  };
}

/** The commit checked out in `root` and whether tracked files differ from it; nulls outside a git work tree. */
export function currentCommit(root: string): { commit: string | null; commit_dirty?: boolean } {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8', timeout: 10_000 });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return { commit: null };
  const status = git('status', '--porcelain', '--untracked-files=no');
  return { commit: head.stdout.trim(), ...(status.status === 0 ? { commit_dirty: status.stdout.trim() !== '' } : {}) };
}

/** bench/results/ of the repository at `root`. */
export const resultsFolder = (root: string): string => join(root, 'bench', 'results');

/** `2026-11-28T06-10-00Z-sqlite.json`, `2026-11-28T06-10-00Z-admin-scale-postgres.json`: sorted by name, sorted by time. */
export function resultFileName(result: Pick<BenchResult, 'date' | 'database' | 'kind'>): string {
  const at = new Date(result.date);
  if (Number.isNaN(at.getTime())) throw new Error(`not a date: ${result.date}`);
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `${stamp}-${result.kind === 'admin-scale' ? 'admin-scale-' : ''}${result.database}.json`;
}

/** Writes the record into `folder` (created if missing) under its file name, never over another; returns the file's path. */
export function writeResult(result: BenchResult, folder: string): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, resultFileName(result));
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`, { flag: 'wx' });
  return file;
}
