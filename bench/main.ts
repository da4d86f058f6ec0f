/**
 * `npm run bench [-- options]`: the built service against two Fastify
 * ceilings on the same database, interleaved, with autocannon: the bare
 * ceiling (bench/bare-ceiling-server.ts: digest, one prepared read
 * of the key row, the row as JSON; for analytics the same plus the adapter's
 * atomic consumption step), whose ratios are the headline, and the older full
 * ceiling (bench/ceiling-server.ts: the same storage work as the
 * service and its decisions). Then each server once more at a paced rate.
 * Every run but a smoke run writes its results into bench/results/ (bench/results.ts);
 * `npm run bench:report` draws their history. See docs/PERFORMANCE.md for what it measures.
 *
 *   --pg                 PostgreSQL: a fresh database on 127.0.0.1:5432 (or on the server of a
 *                        postgres:// DATABASE_URL / BENCH_POSTGRES_ADMIN_URL), dropped afterwards
 *   --mysql              MySQL 8 / MariaDB 10.11: a fresh database on 127.0.0.1:3306 (or on the server
 *                        of a mysql:// DATABASE_URL / BENCH_MYSQL_ADMIN_URL), dropped afterwards; the
 *                        ceiling uses mysql2's pool and prepared statements (see ceiling-server.ts)
 *                        (only servers on this machine, for --pg and --mysql alike)
 *   --object-store       model files in an S3-compatible object store (s3rver, the tests' server, on
 *                        127.0.0.1, started and removed by the run): the models list presigns its links
 *   --keys N             keys to seed (default 10000)
 *   --rounds N           interleaved rounds; the table shows medians (default 3)
 *   --duration S         seconds per measurement (default 10)
 *   --warmup S           seconds of warm-up per endpoint and server before round 1 (default 3)
 *   --connections N      concurrent connections (default 50)
 *   --paced R            after the rounds, each endpoint and server once at R requests/s, open loop
 *                        (bench/load.ts runPaced; default 500; 0: none)
 *   --paced-duration S   seconds of each paced measurement (default: --duration)
 *   --paced-rounds N     paced measurements of each endpoint and server, one after another, each
 *                        reported (p50/p99 per round: a storm of signatures shows; default 1)
 *   --key-order O        how validate and the model list present the seeded keys: `every` (each key in
 *                        turn, so each is presented once per pass: the default) or `mix` (a hot set, the
 *                        first 1 % of keys (at least 100), presented for 80 % of requests at random, and
 *                        the long tail in turn for the rest: keys as an installed base presents them)
 *   --device-fingerprint validate names a device (X-Device-Fingerprint): one device is activated per
 *                        key (POST /v1/devices/activate) before the measurements, so validate is
 *                        measured with the device check; without it, as an SDK that names none
 *   --endpoints a,b      a subset of validate,analytics,keyed,batch,models,health (batch: 100 events a request,
 *                        the service alone; the table adds its events per second against single events';
 *                        keyed: the single event with an idempotency key, as the batch's events carry one,
 *                        the service alone)
 *   --start-samples N    service starts timed (default 3: the run's own start and N-1 restarts)
 *   --service-env K=V    extra environment for the service (repeatable), e.g. LOG_LEVEL=debug
 *   --node-arg ARG       an extra node flag for the service (repeatable), e.g. --cpu-prof; the service
 *                        is always started as `npm run start:built` starts it, then these
 *   --quiet-wait S       before each measured pair, wait up to S s for other work on the machine to
 *                        stop (default 30; 0 in smoke mode)
 *   --retries N          measure a pair again when other work used > 0.25 cores during it (default 2)
 *   --json FILE          also write the results as JSON into FILE (a smoke run writes only there)
 *   --keep               keep the run's folder (database, logs)
 *   --smoke              a few seconds: 100 keys, no warm-up, 1 round of 200 requests (at most 5 s, so a
 *                        busy machine still answers some), 10 connections, SQLite, paced at 100/s for
 *                        0.5 s; nothing written into bench/results/
 *   --admin-scale        instead: the console's admin reads at 100k keys / 1M events (options in
 *                        bench/admin-scale.ts: --pg, --mysql, --keys, --events, --requests, --keep, --smoke)
 *   --help               this text
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { BENCH_DIALECTS, type BenchDatabase, type BenchDialect, chosenDialect, dialectOfKind } from './dialects';
import { BenchProcess, RssSampler } from './bench-process';
import { CpuMonitor, TICKS_PER_SECOND, processTicks } from './cpu-monitor';
import { BUILT_API_MAIN, BARE_CEILING_SERVER, CEILING_SERVER, LIBRARIES, ROOT, assertBuilt, serviceCommand } from './built-service';
import {
  ENDPOINT_LABELS,
  ENDPOINT_NAMES,
  EVENTS_PER_BATCH,
  type EndpointName,
  type KeyOrder,
  type LoadResult,
  runLoad,
  runPaced,
} from './load';
import { seedKeys } from './seed-keys';
import { activateDevices } from './devices';
import { runAdminScale } from './admin-scale';
import { type EndpointSummary, type HotPathResult, currentCommit, resultsFolder, thisMachine, writeResult } from './results';
import { S3TestServer } from '../test/harness/s3-server';

interface Options {
  smoke: boolean;
  /** The database of the run (--pg, --mysql, or DATABASE_URL's; SQLite by default and in a smoke run). */
  database: BenchDialect['kind'];
  objectStore: boolean;
  keys: number;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  paced: number;
  pacedSeconds?: number;
  pacedRounds: number;
  keyOrder: KeyOrder;
  deviceFingerprint: boolean;
  endpoints: EndpointName[];
  startSamples: number;
  serviceEnv: Record<string, string>;
  nodeArgs: string[];
  quietWaitSeconds: number;
  retries: number;
  json?: string;
  keep: boolean;
}

type Server = 'service' | 'bare' | 'ceiling';
/** The endpoints the bare ceiling serves (bench/bare-ceiling-server.ts). */
const BARE_ENDPOINTS: readonly EndpointName[] = ['validate', 'analytics'];
/** The endpoints only the service serves (no ceiling has them). */
const SERVICE_ONLY: readonly EndpointName[] = ['keyed', 'batch'];
interface Measurement {
  readonly round: number;
  readonly endpoint: EndpointName;
  readonly server: Server;
  readonly result: LoadResult;
  /** Cores other work on the machine used meanwhile (see CpuMonitor). */
  readonly otherCores: number;
  /** CPU time the server process used per answered request (all threads), in microseconds. */
  readonly cpuMicrosPerRequest: number;
}

/** Other work above this many cores makes a measurement suspect: it is taken again (--retries). */
const BUSY_CORES = 0.25;
/** `gc()` when node runs with --expose-gc (`npm run bench` does), else undefined. */
const collectOwnGarbage = (globalThis as { gc?: () => void }).gc;

/** A smoke round's requests: enough for each figure to be a number, few enough to take a fraction of a second. */
const SMOKE_REQUESTS = 200;

/** The service's svc_license_signatures_total summed by path, from /metrics; null when it does not answer. */
async function licenseSignaturesOf(baseUrl: string): Promise<{ request: number; ahead: number } | null> {
  try {
    const res = await fetch(`${baseUrl}/metrics`);
    if (res.status !== 200) return null;
    const sums = { request: 0, ahead: 0 };
    for (const line of (await res.text()).split('\n')) {
      const m = /^svc_license_signatures_total\{path="(request|ahead)"[^}]*\} (\d+)/.exec(line);
      if (m) sums[m[1] as 'request' | 'ahead'] += Number(m[2]);
    }
    return sums;
  } catch {
    return null;
  }
}

function parseOptions(argv: readonly string[]): Options {
  const smoke = argv.includes('--smoke');
  const options: Options = {
    smoke,
    ...(smoke ? { pacedSeconds: 0.5 } : {}),
    database: chosenDialect(smoke ? [] : argv, smoke ? '' : (process.env.DATABASE_URL ?? '')).kind,
    objectStore: argv.includes('--object-store'),
    keys: smoke ? 100 : 10_000,
    rounds: smoke ? 1 : 3,
    seconds: smoke ? 5 : 10,
    warmupSeconds: smoke ? 0 : 3,
    connections: smoke ? 10 : 50,
    paced: smoke ? 100 : 500,
    pacedRounds: 1,
    keyOrder: 'every',
    deviceFingerprint: argv.includes('--device-fingerprint'),
    endpoints: [...ENDPOINT_NAMES],
    startSamples: smoke ? 1 : 3,
    serviceEnv: {},
    nodeArgs: [],
    quietWaitSeconds: smoke ? 0 : 30,
    retries: smoke ? 0 : 2,
    keep: argv.includes('--keep'),
  };
  const number = (flag: string, value: string | undefined, min: number, max: number): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${flag} must be a number from ${min} to ${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    switch (flag) {
      case '--smoke':
      case '--device-fingerprint':
      case '--object-store':
      case '--keep':
        break;
      case '--keys':
        options.keys = Math.round(number(flag, value, 4, 5_000_000));
        i++;
        break;
      case '--rounds':
        options.rounds = Math.round(number(flag, value, 1, 20));
        i++;
        break;
      case '--duration':
        options.seconds = number(flag, value, 0.2, 120);
        i++;
        break;
      case '--warmup':
        options.warmupSeconds = number(flag, value, 0, 60);
        i++;
        break;
      case '--connections':
        options.connections = Math.round(number(flag, value, 1, 1000));
        i++;
        break;
      case '--paced':
        options.paced = number(flag, value, 0, 100_000);
        i++;
        break;
      case '--paced-duration':
        options.pacedSeconds = number(flag, value, 0.2, 120);
        i++;
        break;
      case '--paced-rounds':
        options.pacedRounds = Math.round(number(flag, value, 1, 20));
        i++;
        break;
      case '--key-order':
        if (value !== 'every' && value !== 'mix') throw new Error('--key-order takes every or mix');
        options.keyOrder = value;
        i++;
        break;
      case '--start-samples':
        options.startSamples = Math.round(number(flag, value, 1, 10));
        i++;
        break;
      case '--endpoints': {
        const names = (value ?? '').split(',').filter(Boolean);
        if (names.length === 0 || names.some((n) => !(ENDPOINT_NAMES as readonly string[]).includes(n))) {
          throw new Error(`--endpoints takes a comma-separated subset of ${ENDPOINT_NAMES.join(',')}`);
        }
        options.endpoints = names as EndpointName[];
        i++;
        break;
      }
      case '--service-env': {
        const m = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(value ?? '');
        if (!m) throw new Error('--service-env takes NAME=value');
        options.serviceEnv[m[1]] = m[2];
        i++;
        break;
      }
      case '--quiet-wait':
        options.quietWaitSeconds = number(flag, value, 0, 600);
        i++;
        break;
      case '--retries':
        options.retries = Math.round(number(flag, value, 0, 10));
        i++;
        break;
      case '--node-arg':
        if (!value?.startsWith('--')) throw new Error('--node-arg takes a node flag, e.g. --node-arg --cpu-prof');
        options.nodeArgs.push(value);
        i++;
        break;
      case '--json':
        if (!value) throw new Error('--json takes a file name');
        options.json = value;
        i++;
        break;
      default:
        // a database's flag (--pg, --mysql: chosenDialect reads them)
        if (BENCH_DIALECTS.some((dialect) => dialect.flag === flag)) break;
        throw new Error(`unknown option ${flag} (see bench/main.ts for the list)`);
    }
  }
  return options;
}

/** The header comment of this file (bench/main.ts: the bench runs from the repository). */
function usage(): string {
  const header = /\/\*\*\n([\s\S]*?)\n \*\//.exec(readFileSync(join(ROOT, 'bench/main.ts'), 'utf8'));
  return header ? `${header[1].replace(/^ \*( |$)/gm, '')}\n` : 'see bench/main.ts for the options\n';
}

/** Limits raised by configuration only (docs/API.md, "Rate limits"): the benchmark measures throughput, not refusals. */
const BENCH_LIMITS: Record<string, string> = {
  RATE_LIMIT_VALIDATE_PER_MINUTE: '1000000000',
  RATE_LIMIT_ANALYTICS_PER_MINUTE: '1000000000',
  RATE_LIMIT_ANALYTICS_BATCH_PER_MINUTE: '1000000000',
  RATE_LIMIT_MODELS_PER_MINUTE: '1000000000',
  RATE_LIMIT_REFRESH_PER_MINUTE: '1000000000',
  RATE_LIMIT_REVOKE_PER_MINUTE: '1000000000',
  RATE_LIMIT_INSTALLER_PER_MINUTE: '1000000000',
  RATE_LIMIT_DEVICES_PER_MINUTE: '1000000000',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fixed = (n: number, digits = 0) => n.toFixed(digits);

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    process.stdout.write(usage());
    return 0;
  }
  if (process.argv.includes('--admin-scale')) return runAdminScale(process.argv.slice(2).filter((a) => a !== '--admin-scale'));
  const options = parseOptions(process.argv.slice(2));
  assertBuilt();
  const startedAt = new Date();
  const lib = LIBRARIES;
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const folder = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch((e: unknown) => out(`cleanup: ${(e as Error).message}`));
    if (!options.keep) rmSync(folder, { recursive: true, force: true });
  };
  // Every run is bounded in time as well as in requests.
  const pairs = options.rounds * options.endpoints.length;
  const boundSeconds =
    120 +
    options.keys / 5_000 +
    options.endpoints.length * 2 * (options.warmupSeconds + 5) +
    pairs * (options.retries + 1) * (options.quietWaitSeconds + 3 * (options.seconds + 5)) +
    (options.paced > 0 ? options.pacedRounds * options.endpoints.length * 3 * ((options.pacedSeconds ?? options.seconds) + 5) : 0) +
    options.startSamples * 35;
  const watchdog = setTimeout(() => {
    out(`bench: exceeded its time bound of ${fixed(boundSeconds)} s; stopping`);
    void cleanUp().finally(() => process.exit(2));
  }, boundSeconds * 1000);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  }

  try {
    const database: BenchDatabase = await dialectOfKind(options.database).freshDatabase(folder, process.env.DATABASE_URL ?? '');
    cleanups.push(() => database.drop());

    const cpu = cpus();
    out('svc-licensing benchmark: the built service against the bare and the full Fastify ceilings on the same database');
    out(
      `machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${fixed(totalmem() / 2 ** 30, 1)} GiB RAM, Linux ${release()}, Node ${process.version}`,
    );
    out(`date: ${startedAt.toISOString()}`);
    const objectStore = options.objectStore ? await S3TestServer.start() : null;
    if (objectStore) cleanups.push(() => objectStore.dispose());
    out(
      `mode: ${options.smoke ? 'smoke' : 'full'}; database: ${database.label}; model store: ${objectStore ? `object store (s3rver at ${objectStore.endpoint})` : 'local folder'}`,
    );

    const keys = await seedKeys(lib, database.url, options.keys, out);
    out(
      `keys: ${keys.all.length} seeded in ${fixed(keys.seconds, 1)} s (${fixed(keys.all.length / Math.max(keys.seconds, 0.001))} keys/s), ${keys.unlimited.length} of them unlimited (enterprise)`,
    );

    const command = serviceCommand();
    const serviceEnv: Record<string, string> = {
      DATABASE_URL: database.url,
      ...(objectStore
        ? { ...objectStore.envFor('bench'), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' }
        : { MODEL_STORE_DIR: join(folder, 'models') }),
      SAMPLE_MODELS: 'true',
      ...BENCH_LIMITS,
      ...options.serviceEnv,
    };
    const nodeFlags = [...command.nodeFlags, ...options.nodeArgs];
    const startTimes: number[] = [];
    const startService = async (): Promise<BenchProcess> => {
      const service = await BenchProcess.start('service', [...nodeFlags, BUILT_API_MAIN], serviceEnv, join(folder, 'service.log'), ROOT);
      startTimes.push(service.startToHealthyMs);
      return service;
    };
    let service = await startService();
    cleanups.push(() => service.stop());
    const fingerprints = options.deviceFingerprint ? await activateDevices(service.baseUrl, keys.all, out) : undefined;
    const ceiling = await BenchProcess.start(
      'ceiling',
      [CEILING_SERVER],
      { DATABASE_URL: database.url, TIERS_FILE: join(ROOT, 'config/tiers.json') },
      join(folder, 'ceiling.log'),
      ROOT,
    );
    cleanups.push(() => ceiling.stop());
    // The bare ceiling reads SQLite and PostgreSQL; on MySQL only the full ceiling runs.
    const bare = !database.hasBareCeiling
      ? null
      : await BenchProcess.start(
          'bare',
          [BARE_CEILING_SERVER],
          { DATABASE_URL: database.url, TIERS_FILE: join(ROOT, 'config/tiers.json') },
          join(folder, 'bare-ceiling.log'),
          ROOT,
        );
    if (bare) cleanups.push(() => bare.stop());
    const serversOf = (endpoint: EndpointName): Server[] =>
      SERVICE_ONLY.includes(endpoint)
        ? ['service']
        : bare && BARE_ENDPOINTS.includes(endpoint)
          ? ['service', 'bare', 'ceiling']
          : ['service', 'ceiling'];
    out(
      `load: autocannon, ${options.connections} connections, warm-up ${options.warmupSeconds} s per endpoint and server, ` +
        `${options.rounds} round(s) of ${options.seconds} s per endpoint and server, interleaved (the order alternates each round)`,
    );
    out(
      `service environment beyond defaults: ${Object.entries({ ...BENCH_LIMITS, SAMPLE_MODELS: 'true', ...options.serviceEnv })
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
    out(
      `service command: ${command.text} (npm run start:built)${options.nodeArgs.length > 0 ? `, with node flags ${options.nodeArgs.join(' ')}` : ''}`,
    );
    out(
      collectOwnGarbage
        ? 'load generator (this process): its heap collected before each measurement'
        : 'load generator (this process): started without --expose-gc, so its heap is not collected before each measurement (npm run bench collects it)',
    );
    out();

    const servers: Record<Server, BenchProcess> = { service, ceiling, bare: bare ?? ceiling };
    const rssSamplers: Record<Server, RssSampler> = {
      service: new RssSampler(service),
      ceiling: new RssSampler(ceiling),
      bare: new RssSampler(bare ?? ceiling),
    };
    const serviceRss = rssSamplers.service;
    const ceilingRss = rssSamplers.ceiling;
    // A smoke round ends after a few requests (within its 5 s on a busy machine), a measured one on its time.
    const maxRequests = options.smoke ? SMOKE_REQUESTS : Math.ceil(options.seconds * 100_000);
    const monitor = new CpuMonitor(() => [servers.service.pid, servers.ceiling.pid, ...(bare ? [bare.pid] : [])], database.serverProcess);
    const load = async (
      server: Server,
      endpoint: EndpointName,
      seconds: number,
      rate?: number,
    ): Promise<{ result: LoadResult; otherCores: number; cpuMicrosPerRequest: number }> => {
      // This process is the load generator: collecting its own heap now (node --expose-gc, as `npm run
      // bench` starts it) makes a collection of its old generation during the measurement, whose pause
      // would be timed as the server's latency, less likely (LoadResult.generatorStallMs shows what is left).
      collectOwnGarbage?.();
      const sampler = rssSamplers[server];
      sampler.start();
      monitor.start();
      const ticksBefore = processTicks(servers[server].pid);
      try {
        const spec = {
          baseUrl: servers[server].baseUrl,
          endpoint,
          keys,
          connections: options.connections,
          seconds,
          maxRequests,
          keyOrder: options.keyOrder,
          fingerprints,
        };
        const result = rate ? await runPaced({ ...spec, rate }) : await runLoad(spec);
        const cpuSeconds = (processTicks(servers[server].pid) - ticksBefore) / TICKS_PER_SECOND;
        return { result, otherCores: monitor.foreignCores(), cpuMicrosPerRequest: (cpuSeconds * 1e6) / Math.max(result.requests, 1) };
      } finally {
        sampler.stop();
      }
    };
    /** Waits (bounded) until other work on the machine has used under 0.15 cores for a second. */
    const quiet = async (): Promise<void> => {
      const deadline = Date.now() + options.quietWaitSeconds * 1000;
      let said = false;
      while (Date.now() < deadline) {
        monitor.start();
        await new Promise((r) => setTimeout(r, 1000));
        const busy = monitor.foreignCores();
        if (busy < 0.15) return;
        if (!said)
          out(`  (other work on the machine is using ${fixed(busy, 2)} cores: waiting up to ${options.quietWaitSeconds} s for it to stop)`);
        said = true;
      }
    };

    let warmupFailures = 0;
    if (options.warmupSeconds > 0) {
      for (const endpoint of options.endpoints) {
        for (const server of serversOf(endpoint)) {
          const { result } = await load(server, endpoint, options.warmupSeconds);
          warmupFailures += result.errors + result.non2xx;
        }
      }
    }

    const measurements: Measurement[] = [];
    let failures = warmupFailures;
    for (let round = 1; round <= options.rounds; round++) {
      for (const endpoint of options.endpoints) {
        const order: Server[] = round % 2 === 1 ? serversOf(endpoint) : [...serversOf(endpoint)].reverse();
        for (let attempt = 0; ; attempt++) {
          if (options.quietWaitSeconds > 0) await quiet();
          const pair: Measurement[] = [];
          for (const server of order) {
            const { result, otherCores, cpuMicrosPerRequest } = await load(server, endpoint, options.seconds);
            pair.push({ round, endpoint, server, result, otherCores, cpuMicrosPerRequest });
            out(
              `round ${round} ${ENDPOINT_LABELS[endpoint].padEnd(23)} ${server.padEnd(7)} ${fixed(result.requestsPerSecond).padStart(6)} req/s` +
                `  p50 ${fixed(result.p50, 1)} ms  p99 ${fixed(result.p99, 1)} ms  errors ${result.errors}  non-2xx ${result.non2xx}` +
                `  cpu ${fixed(cpuMicrosPerRequest)} µs/req` +
                `  other work ${fixed(otherCores, 2)} cores`,
            );
          }
          const busiest = Math.max(...pair.map((m) => m.otherCores));
          // Errors always count, even in a pair measured again.
          failures += pair.reduce((n, m) => n + m.result.errors + m.result.non2xx, 0);
          if (busiest <= BUSY_CORES || attempt >= options.retries) {
            measurements.push(...pair);
            break;
          }
          out(`  (other work used ${fixed(busiest, 2)} cores during this pair: measuring it again)`);
        }
      }
    }
    // Paced: each endpoint and server once at a fixed request rate (open loop), for latency below saturation
    // (not batches: a batch carries a hundred events, so a request rate says little about them).
    const paced: Array<{ round: number; endpoint: EndpointName; server: Server; result: LoadResult; cpuMicrosPerRequest: number }> = [];
    for (let round = 1; options.paced > 0 && round <= options.pacedRounds; round++) {
      for (const endpoint of options.endpoints.filter((e) => !SERVICE_ONLY.includes(e))) {
        // the order reversed every round, as in the rounds above: no server always follows the same work
        const order: Server[] = round % 2 === 1 ? serversOf(endpoint) : [...serversOf(endpoint)].reverse();
        for (const server of order) {
          if (options.quietWaitSeconds > 0) await quiet();
          const { result, cpuMicrosPerRequest } = await load(server, endpoint, options.pacedSeconds ?? options.seconds, options.paced);
          failures += result.errors + result.non2xx;
          paced.push({ round, endpoint, server, result, cpuMicrosPerRequest });
          out(
            `paced ${options.paced}/s round ${round} ${ENDPOINT_LABELS[endpoint].padEnd(23)} ${server.padEnd(7)} ${fixed(result.requestsPerSecond).padStart(6)} req/s` +
              `  p50 ${fixed(result.p50, 2)} ms  p99 ${fixed(result.p99, 2)} ms  errors ${result.errors}  non-2xx ${result.non2xx}` +
              `  cpu ${fixed(cpuMicrosPerRequest)} µs/req  generator stall ${fixed(result.generatorStallMs, 1)} ms`,
          );
        }
      }
    }
    // How often the service signed a license on the request path (issue 40: rare once licenses are signed ahead)
    const licenseSignatures = await licenseSignaturesOf(servers.service.baseUrl);
    if (licenseSignatures) {
      out(
        `licenses signed by the service: ${licenseSignatures.request} on the request path (validate, refresh), ${licenseSignatures.ahead} ahead ` +
          '(svc_license_signatures_total)',
      );
    }
    const rssPeak = serviceRss.peak;
    const ceilingRssPeak = ceilingRss.peak;
    const bareRssPeak = bare ? rssSamplers.bare.peak : null;

    // Restarts, timed, after the load (the run's own start was the first sample).
    for (let i = 1; i < options.startSamples; i++) {
      await service.stop();
      service = await startService();
    }

    out();
    out(
      `medians of ${options.rounds} interleaved round(s) at ${options.connections} connections; latency in ms; ` +
        "ratio = median over rounds of service req/s / that ceiling's req/s in the same round; cpu = CPU µs per request",
    );
    out();
    out(
      '| endpoint | service req/s | p50 | p99 | cpu | bare req/s | p50 | p99 | cpu | **service/bare** | ceiling req/s | p50 | p99 | service/ceiling | errors / non-2xx |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const summary: Record<string, EndpointSummary> = {};
    for (const endpoint of options.endpoints) {
      const of = (server: Server) => measurements.filter((m) => m.endpoint === endpoint && m.server === server);
      const stats = (runs: Measurement[]) => ({
        rps: median(runs.map((r) => r.result.requestsPerSecond)),
        p50: median(runs.map((r) => r.result.p50)),
        p99: median(runs.map((r) => r.result.p99)),
        cpu: median(runs.map((r) => r.cpuMicrosPerRequest)),
        errors: runs.reduce((n, r) => n + r.result.errors, 0),
        non2xx: runs.reduce((n, r) => n + r.result.non2xx, 0),
        requests: runs.reduce((n, r) => n + r.result.requests, 0),
      });
      const ratiosTo = (other: Server) =>
        of('service').map((m) => {
          const theirs = of(other).find((o) => o.round === m.round);
          return m.result.requestsPerSecond / Math.max(theirs?.result.requestsPerSecond ?? 0, 1e-9);
        });
      const s = stats(of('service'));
      const hasCeiling = of('ceiling').length > 0;
      const c = hasCeiling ? stats(of('ceiling')) : null;
      const hasBare = of('bare').length > 0;
      const b = hasBare ? stats(of('bare')) : null;
      const ratios = hasCeiling ? ratiosTo('ceiling') : [];
      const ratio = hasCeiling ? median(ratios) : null;
      const bareRatios = hasBare ? ratiosTo('bare') : [];
      const bareRatio = hasBare ? median(bareRatios) : null;
      const pacedOf = (server: Server) => paced.find((p) => p.endpoint === endpoint && p.server === server);
      summary[endpoint] = {
        service: s,
        ceiling: c,
        bare: b,
        ratio,
        ratios,
        bare_ratio: bareRatio,
        bare_ratios: bareRatios,
        paced: Object.fromEntries(
          (['service', 'bare', 'ceiling'] as const).flatMap((server) => {
            const p = pacedOf(server);
            return p ? [[server, { ...p.result, cpuMicrosPerRequest: p.cpuMicrosPerRequest }]] : [];
          }),
        ),
      };
      const dash = '–';
      out(
        `| ${ENDPOINT_LABELS[endpoint]} | ${fixed(s.rps)} | ${fixed(s.p50, 1)} | ${fixed(s.p99, 1)} | ${fixed(s.cpu)} ` +
          `| ${b ? fixed(b.rps) : dash} | ${b ? fixed(b.p50, 1) : dash} | ${b ? fixed(b.p99, 1) : dash} | ${b ? fixed(b.cpu) : dash} ` +
          `| ${bareRatio === null ? dash : `**${fixed(bareRatio, 2)}**`} ` +
          `| ${c ? fixed(c.rps) : dash} | ${c ? fixed(c.p50, 1) : dash} | ${c ? fixed(c.p99, 1) : dash} | ${ratio === null ? dash : fixed(ratio, 2)} ` +
          `| ${s.errors + (b?.errors ?? 0) + (c?.errors ?? 0)} / ${s.non2xx + (b?.non2xx ?? 0) + (c?.non2xx ?? 0)} |`,
      );
    }
    const batches = summary.batch;
    const singles = [
      ['analytics', 'single events without idempotency keys'],
      ['keyed', 'single events each with its idempotency key, as the batch sends them (like for like)'],
    ] as const;
    for (const [name, described] of singles) {
      const single = summary[name];
      if (!batches?.service.rps || !single?.service.rps) continue;
      const events = batches.service.rps * EVENTS_PER_BATCH;
      out();
      out(
        `events per second: ${fixed(events)} through batches of ${EVENTS_PER_BATCH} against ${fixed(single.service.rps)} ${described}, ` +
          `**${fixed(events / single.service.rps, 1)}x** (CONTRACT 22's target: at least 10x)`,
      );
    }
    if (paced.length > 0) {
      out();
      out(
        `paced at ${options.paced} requests/s (open loop: each request sent when due, latency from then; at most ${options.connections} sockets), ` +
          `${options.pacedRounds} measurement(s) each, one per round; latency in ms`,
      );
      out();
      out('| endpoint | server | round | req/s | p50 | p99 | cpu µs/req |');
      out('|---|---|---:|---:|---:|---:|---:|');
      for (const p of paced) {
        out(
          `| ${ENDPOINT_LABELS[p.endpoint]} | ${p.server} | ${p.round} | ${fixed(p.result.requestsPerSecond)} | ${fixed(p.result.p50, 2)} | ${fixed(p.result.p99, 2)} | ${fixed(p.cpuMicrosPerRequest)} |`,
        );
      }
    }
    out();
    out(
      `service RSS under load: peak ${rssPeak === null ? 'n/a' : `${fixed(rssPeak, 1)} MiB`} (${serviceRss.count} samples of /proc/${service.pid}/status VmRSS)` +
        `; bare ceiling peak ${bareRssPeak === null ? 'n/a' : `${fixed(bareRssPeak, 1)} MiB`}` +
        `; full ceiling peak ${ceilingRssPeak === null ? 'n/a' : `${fixed(ceilingRssPeak, 1)} MiB`}`,
    );
    out(
      `service start to healthy (spawn of the built main.js to the first 200 of /api/health): ${startTimes.map((t) => `${fixed(t)} ms`).join(', ')}` +
        ` (first: the run's start, which publishes the sample models; then restarts); median ${fixed(median(startTimes))} ms`,
    );
    const other = measurements.map((m) => m.otherCores);
    out(
      `other work on the machine during the measurements: median ${fixed(median(other), 2)} cores, max ${fixed(Math.max(...other), 2)} cores` +
        (Math.max(...other) > BUSY_CORES ? ' (WARNING: the machine was shared; ratios are less reliable)' : ''),
    );
    if (warmupFailures > 0) out(`warm-up: ${warmupFailures} errors or non-2xx answers`);
    out(
      failures === 0
        ? 'result: no errors, no non-2xx answers'
        : `result: FAILED, ${failures} errors or non-2xx answers (see ${options.keep ? folder : 'the logs; rerun with --keep'})`,
    );

    const result: HotPathResult = {
      schema: 1,
      kind: 'hot-path',
      date: startedAt.toISOString(),
      database: database.kind,
      machine: thisMachine(),
      ...currentCommit(ROOT),
      options: { ...options },
      seeding_seconds: keys.seconds,
      summary,
      measurements,
      paced,
      license_signatures: licenseSignatures,
      rss_peak_mib: rssPeak,
      bare_rss_peak_mib: bareRssPeak,
      ceiling_rss_peak_mib: ceilingRssPeak,
      start_to_healthy_ms: startTimes,
      failures,
    };
    if (!options.smoke) out(`results: ${writeResult(result, resultsFolder(ROOT))}`);
    if (options.json) writeFileSync(options.json, `${JSON.stringify(result, null, 2)}\n`);
    return failures === 0 ? 0 : 1;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
