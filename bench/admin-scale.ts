/**
 * `npm run bench -- --admin-scale [options]`: the console's admin reads at scale. Seeds a
 * fresh database with 100,000 keys (each its own user, its key.issued audit entry, 2 % revoked,
 * some expired, 0.5 % near their quota) and 1,000,000 analytics events over the last year (one busy
 * key with 20,000 of them, the usage counters they imply), in bulk (multi-row INSERTs or prepared
 * statements in large transactions, never the API), starts the built service on it, and times each
 * admin read over real HTTP: warm-up, then sequential requests, median and p95 per read.
 *
 *   --pg | --mysql       PostgreSQL / MySQL (MariaDB) on this machine instead of a SQLite file
 *                        (a new database on the server of BENCH_POSTGRES_ADMIN_URL / BENCH_MYSQL_ADMIN_URL)
 *   --keys N             keys to seed (default 100000)
 *   --events N           events to seed (default 1000000)
 *   --requests N         timed requests per read (default 50)
 *   --keep               keep the run's folder and database
 *   --smoke              1,000 keys, 10,000 events, 5 requests (for the bench smoke test)
 *
 * Every run but a smoke run writes its timings into bench/results/ (bench/results.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import type { AnalyticsEvent, AuditEntry, IdKind, LicenseType, User } from '@svc/domain';
import { BenchProcess } from './bench-process';
import { type BenchDatabase, type BenchDialect, chosenDialect, dialectOfKind, dialectOfUrl } from './dialects';
import { BUILT_API_MAIN, LIBRARIES, ROOT, assertBuilt, serviceCommand } from './built-service';
import { type AdminScaleResult, currentCommit, resultsFolder, thisMachine, writeResult } from './results';
import { PooledRandom, rowOf, writtenColumns } from './seed-keys';

const DAY_MS = 86_400_000;
const TIERS: readonly LicenseType[] = ['free', 'research', 'commercial', 'enterprise'];
const MODELS = ['motor_imagery_4class_v1', 'motor_imagery_2class_v1', 'p300_binary_v1', 'ssvep_multiclass_v1', 'custom_decoder_v3'];
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const ROWS_PER_TRANSACTION = 50_000;

interface AdminScaleOptions {
  kind: BenchDialect['kind'];
  keys: number;
  events: number;
  requests: number;
  keep: boolean;
  smoke: boolean;
}

function parse(argv: readonly string[]): AdminScaleOptions {
  const smoke = argv.includes('--smoke');
  const options: AdminScaleOptions = {
    kind: chosenDialect(argv, '').kind,
    keys: smoke ? 1_000 : 100_000,
    events: smoke ? 10_000 : 1_000_000,
    requests: smoke ? 5 : 50,
    keep: argv.includes('--keep'),
    smoke,
  };
  for (let i = 0; i < argv.length; i++) {
    const n = Number(argv[i + 1]);
    if (argv[i] === '--keys') options.keys = Math.max(100, Math.round(n));
    if (argv[i] === '--events') options.events = Math.max(1000, Math.round(n));
    if (argv[i] === '--requests') options.requests = Math.max(1, Math.round(n));
  }
  return options;
}

/** What the timed reads need to know of the seeded data. */
interface Seeded {
  readonly emails: readonly string[];
  readonly prefixes: readonly string[];
  readonly middleKey: { readonly createdAt: Date; readonly id: string };
  readonly middleAudit: { readonly at: Date; readonly id: string };
  readonly busyKeyId: string;
  readonly busyEvents: number;
  readonly counters: number;
  readonly seconds: number;
}

/** The analytics_events columns the seeder fills (the table has no TypeORM record: the service writes it by SQL). */
const EVENT_COLUMNS = [
  'id',
  'key_id',
  'environment',
  'event_type',
  'model_name',
  'inference_type',
  'duration_ms',
  'success',
  'error_message',
  'metadata',
  'period',
  'received_at',
];

/** An event's values in EVENT_COLUMNS order; `as` says how the database's driver takes a boolean and an instant. */
function eventRow(
  event: AnalyticsEvent,
  as: { readonly success: (success: boolean) => unknown; readonly instant: (at: Date) => unknown },
): unknown[] {
  return [
    event.id,
    event.keyId,
    event.environment,
    event.eventType,
    event.modelName,
    event.inferenceType,
    event.durationMs,
    event.success === null ? null : as.success(event.success),
    event.errorMessage,
    event.metadata === null ? null : JSON.stringify(event.metadata),
    event.period,
    as.instant(event.receivedAt),
  ];
}

const ymd = (at: Date) => at.toISOString().slice(0, 10);

async function seed(databaseUrl: string, options: AdminScaleOptions, out: (line: string) => void): Promise<Seeded> {
  const started = Date.now();
  const lib = LIBRARIES;
  const config = lib.config.loadConfig({ DATABASE_URL: databaseUrl });
  const dialect = dialectOfUrl(databaseUrl);
  const dataSource = await new DataSource(dialect.dataSourceOptions(lib, config.database)).initialize();
  const writer = await dialect.tableWriter(databaseUrl, dataSource);
  const { ApiKey, ApiKeyFormat } = lib.domain;
  const format = new ApiKeyFormat(config.keys.prefix);
  const hasher = new lib.infrastructure.Sha256SecretHasher(config.keys.digestPepper);
  const pooled = new PooledRandom();
  const random = new (class extends lib.domain.RandomSource {
    hex(bytes: number): string {
      return pooled.hex(bytes);
    }
  })();
  const newId = (k: IdKind | 'evt') => `${k}_${pooled.hex(12)}`;
  const tables = {
    users: dataSource.getMetadata(lib.infrastructure.UserRecord),
    keys: dataSource.getMetadata(lib.infrastructure.ApiKeyRecord),
    audit: dataSource.getMetadata(lib.infrastructure.AuditEntryRecord),
    counters: dataSource.getMetadata(lib.infrastructure.UsageCounterRecord),
  };
  const columns = (t: keyof typeof tables) => writtenColumns(tables[t]).map((c) => c.databaseName);
  const eventAs = dialect.eventValues;
  const eventColumns = EVENT_COLUMNS;

  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const spacing = Math.max(1, Math.floor((400 * DAY_MS) / options.keys));
  const keyIds = new Array<string>(options.keys);
  const emails = new Array<string>(options.keys);
  const prefixes = new Array<string>(options.keys);
  const heavy: number[] = [];
  let middleKey = { createdAt: now, id: '' };
  let middleAudit = { at: now, id: '' };
  try {
    // keys, their users and audit entries
    for (let first = 0; first < options.keys; first += ROWS_PER_TRANSACTION) {
      const last = Math.min(options.keys, first + ROWS_PER_TRANSACTION);
      const users: unknown[][] = [];
      const keys: unknown[][] = [];
      const audit: unknown[][] = [];
      for (let i = first; i < last; i++) {
        const createdAt = new Date(now.getTime() - (options.keys - i) * spacing);
        const user: User = {
          id: newId('usr'),
          email: `admin-bench-${i}@example.org`,
          name: `Bench user ${i}`,
          organization: null,
          createdAt,
        };
        const secret = format.generate('live', random);
        const licenseType = TIERS[i % TIERS.length];
        const revoked = i % 50 === 7;
        const isHeavy = i % 200 === 11;
        if (isHeavy) heavy.push(i);
        const id = newId('key');
        const key = new ApiKey({
          id,
          userId: user.id,
          digest: hasher.digest(secret),
          displayPrefix: ApiKeyFormat.displayPrefixOf(secret),
          environment: 'live',
          licenseType,
          expiresAt: new Date(createdAt.getTime() + (i % 20 === 3 ? 30 : 365) * DAY_MS),
          revokedAt: revoked ? new Date(Math.min(now.getTime() - 1000, createdAt.getTime() + DAY_MS)) : null,
          monthlyLimit: isHeavy
            ? { source: 'override', limit: 50 }
            : i % 100 === 13
              ? { source: 'override', limit: null }
              : { source: 'tier' },
          createdAt,
          licenseId: id,
          rotatedFrom: null,
          rotatedTo: null,
        });
        keyIds[i] = key.id;
        emails[i] = user.email;
        prefixes[i] = key.props.displayPrefix;
        users.push(rowOf(dataSource, tables.users, lib.infrastructure.UserMapper.toRecord(user)));
        keys.push(rowOf(dataSource, tables.keys, lib.infrastructure.ApiKeyMapper.toRecord(key)));
        const entries: AuditEntry[] = [
          {
            id: newId('aud'),
            at: createdAt,
            action: 'key.issued',
            keyId: key.id,
            reason: null,
            details: { user_id: user.id, license_type: licenseType, environment: 'live', prefix: key.props.displayPrefix },
            actor: { type: 'bootstrap' },
          },
        ];
        if (key.props.revokedAt)
          entries.push({
            id: newId('aud'),
            at: key.props.revokedAt,
            action: 'key.revoked',
            keyId: key.id,
            reason: 'bench',
            details: { by: 'operator' },
            actor: { type: 'bootstrap' },
          });
        for (const entry of entries) audit.push(rowOf(dataSource, tables.audit, lib.infrastructure.AuditEntryMapper.toRecord(entry)));
        if (i === Math.floor(options.keys / 2)) {
          middleKey = { createdAt, id: key.id };
          middleAudit = { at: createdAt, id: entries[0].id };
        }
      }
      await writer.begin();
      await writer.insert(tables.users.tableName, columns('users'), users);
      await writer.insert(tables.keys.tableName, columns('keys'), keys);
      await writer.insert(tables.audit.tableName, columns('audit'), audit);
      await writer.commit();
    }
    out(`  keys, users and audit entries: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // events: one busy key over the last 366 days, the heavy keys near their limit this month, the rest anywhere in the year
    const busy = 0;
    const busyEvents = Math.min(20_000, Math.floor(options.events / 50));
    const heavyEvents = heavy.map((_, n) => 40 + (n % 21));
    const rest = Math.max(0, options.events - busyEvents - heavyEvents.reduce((a, b) => a + b, 0));
    const counters = new Map<string, number>();
    let seq = 0;
    const eventOf = (keyIndex: number, receivedAt: Date): unknown[] => {
      const r = (seq++ * 2654435761) % 1000;
      const eventType = r < 850 ? 'inference' : r < 950 ? 'model_load' : 'error';
      const period = receivedAt.toISOString().slice(0, 7);
      if (eventType === 'inference') {
        const slot = `${keyIndex}/${period}`;
        counters.set(slot, (counters.get(slot) ?? 0) + 1);
      }
      const event: AnalyticsEvent = {
        id: newId('evt'),
        keyId: keyIds[keyIndex],
        licenseId: keyIds[keyIndex],
        keyPrefix: 'svc_live_bench',
        environment: 'live',
        eventType,
        modelName: MODELS[seq % MODELS.length],
        inferenceType: eventType === 'inference' ? (seq % 3 === 0 ? 'streaming' : 'batch') : null,
        durationMs: eventType === 'inference' ? 12.5 : null,
        success: r % 50 === 0 ? null : r % 12 === 0 ? false : true,
        errorMessage: null,
        metadata: null,
        period,
        receivedAt,
        occurredAt: receivedAt,
        batched: false,
      };
      return eventRow(event, eventAs);
    };
    const plan = function* (): Generator<[number, Date]> {
      const yearAgo = now.getTime() - 365 * DAY_MS;
      for (let n = 0; n < busyEvents; n++)
        yield [busy, new Date(now.getTime() - 366 * DAY_MS + Math.floor((n * 366 * DAY_MS) / busyEvents))];
      for (let h = 0; h < heavy.length; h++) {
        for (let n = 0; n < heavyEvents[h]; n++)
          yield [
            heavy[h],
            new Date(monthStart.getTime() + Math.floor(((now.getTime() - monthStart.getTime()) * (n + 0.5)) / heavyEvents[h])),
          ];
      }
      for (let n = 0; n < rest; n++) {
        const keyIndex = Number.parseInt(pooled.hex(4), 16) % options.keys;
        yield [keyIndex, new Date(yearAgo + (Number.parseInt(pooled.hex(4), 16) % (365 * DAY_MS)))];
      }
    };
    let batch: unknown[][] = [];
    const flush = async () => {
      await writer.begin();
      await writer.insert('analytics_events', eventColumns, batch);
      await writer.commit();
      batch = [];
    };
    let written = 0;
    for (const [keyIndex, at] of plan()) {
      batch.push(eventOf(keyIndex, at));
      if (batch.length === ROWS_PER_TRANSACTION) {
        written += batch.length;
        await flush();
        if (written % 200_000 === 0) out(`  events: ${written} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
    written += batch.length;
    if (batch.length > 0) await flush();
    const counterRows = [...counters].map(([slot, used]) => {
      const [keyIndex, period] = slot.split('/');
      return rowOf(dataSource, tables.counters, { licenseId: keyIds[Number(keyIndex)], period, used });
    });
    for (let from = 0; from < counterRows.length; from += ROWS_PER_TRANSACTION) {
      await writer.begin();
      await writer.insert(tables.counters.tableName, columns('counters'), counterRows.slice(from, from + ROWS_PER_TRANSACTION));
      await writer.commit();
    }
    out(`  ${written} events and ${counterRows.length} usage counters: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // autovacuum's steady state, reached at once: statistics, and the visibility map that index-only scans need
    await dialect.analyze(dataSource, ['users', 'api_keys', 'usage_counters', 'audit_log', 'analytics_events'], true);
    return {
      emails,
      prefixes,
      middleKey,
      middleAudit,
      busyKeyId: keyIds[busy],
      busyEvents,
      counters: counterRows.length,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await writer.close();
    await dataSource.destroy();
  }
}

interface Timing {
  readonly label: string;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly failures: number;
  readonly bytes: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(baseUrl: string, label: string, requests: number, pathOf: (n: number) => string, token = ADMIN_TOKEN): Promise<Timing> {
  const call = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { ok: res.status === 200, bytes: text.length, text };
  };
  for (let n = 0; n < 3; n++) {
    const warm = await call(pathOf(-1 - n));
    if (!warm.ok) throw new Error(`${label}: ${pathOf(-1 - n)} answered ${warm.text.slice(0, 300)}`);
  }
  const ms: number[] = [];
  let failures = 0;
  let bytes = 0;
  for (let n = 0; n < requests; n++) {
    const started = performance.now();
    const answer = await call(pathOf(n));
    ms.push(performance.now() - started);
    if (!answer.ok) failures++;
    bytes = answer.bytes;
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { label, median: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1], failures, bytes };
}

/** A `support` operator made through the admin API (POST /admin/v1/operators); its token. */
async function createOperator(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/admin/v1/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Support', role: 'support' }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201 || typeof body.token !== 'string') throw new Error(`creating an operator answered ${res.status}`);
  return body.token;
}

export async function runAdminScale(argv: readonly string[]): Promise<number> {
  const options = parse(argv);
  assertBuilt();
  const startedAt = new Date();
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const folder = mkdtempSync(join(tmpdir(), 'svc-bench-admin-'));
  const database: BenchDatabase = await dialectOfKind(options.kind).freshDatabase(folder, '');
  let service: BenchProcess | undefined;
  try {
    const cpu = cpus();
    out("svc-licensing admin-scale benchmark: the console's admin reads over real HTTP on a seeded database");
    out(
      `machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}, Node ${process.version}`,
    );
    out(`date: ${startedAt.toISOString()}; database: ${database.label}`);
    out(`seeding ${options.keys} keys and ${options.events} events (bulk INSERTs in transactions of ${ROWS_PER_TRANSACTION} rows)`);
    const seeded = await seed(database.url, options, out);
    out(`seeded in ${seeded.seconds.toFixed(1)} s; busy key ${seeded.busyKeyId} has ${seeded.busyEvents} events over 366 days`);

    const command = serviceCommand();
    service = await BenchProcess.start(
      'service',
      [...command.nodeFlags, BUILT_API_MAIN],
      { DATABASE_URL: database.url, ADMIN_TOKEN, MODEL_STORE_DIR: join(folder, 'models'), LOG_LEVEL: 'warn' },
      join(folder, 'service.log'),
      ROOT,
      120_000,
    );
    out(
      `service: ${command.text}, healthy after ${service.startToHealthyMs.toFixed(0)} ms; ${options.requests} sequential requests per read after 3 warm-up requests`,
    );
    out();

    const { encodeCursor } = LIBRARIES.presentation;
    const pick = <T>(list: readonly T[], n: number) => list[((((n + 7) * 7919) % list.length) + list.length) % list.length];
    const today = new Date();
    const from = ymd(new Date(today.getTime() - 365 * DAY_MS));
    const keysCursor = encodeCursor('keys', { at: seeded.middleKey.createdAt, id: seeded.middleKey.id });
    const auditCursor = encodeCursor('audit', seeded.middleAudit);
    const reads: Array<[string, (n: number) => string]> = [
      ['keys, first page (50)', () => '/admin/v1/keys'],
      ['keys by e-mail', (n) => `/admin/v1/keys?email=${encodeURIComponent(pick(seeded.emails, n))}`],
      ['keys by prefix (12 characters)', (n) => `/admin/v1/keys?prefix=${pick(seeded.prefixes, n)}`],
      ['keys by prefix (10 characters, 1/16 of keys)', (n) => `/admin/v1/keys?prefix=${pick(seeded.prefixes, n).slice(0, 10)}`],
      ['keys, a later page via cursor (middle)', () => `/admin/v1/keys?cursor=${keysCursor}`],
      ['keys by tier and status=revoked (0.5 %)', () => '/admin/v1/keys?license_type=research&status=revoked'],
      ['usage/daily, busy key, 366 days', () => `/admin/v1/usage/daily?key_id=${seeded.busyKeyId}&from=${from}&to=${ymd(today)}`],
      ['overview', () => '/admin/v1/overview'],
      ['audit, first page (50)', () => '/admin/v1/audit'],
      ['audit, a later page via cursor (middle)', () => `/admin/v1/audit?cursor=${auditCursor}`],
      ['audit by action (key.revoked)', () => '/admin/v1/audit?action=key.revoked'],
    ];
    const timings: Timing[] = [];
    const loadBefore = loadavg()[0];
    for (const [label, pathOf] of reads) timings.push(await time(service.baseUrl, label, options.requests, pathOf));
    // What a named operator's token costs an admin call: one indexed read of the operator by
    // the token's digest on every request (no cache, so a disabled operator is refused at once on every
    // instance), against ADMIN_TOKEN, compared in memory. The same reads, one after the other.
    const operatorToken = await createOperator(service.baseUrl);
    for (const [label, path] of [
      ['who am I (GET /me)', '/admin/v1/me'],
      ['keys, first page (50)', '/admin/v1/keys'],
    ] as const) {
      timings.push(await time(service.baseUrl, `${label}, ADMIN_TOKEN`, options.requests, () => path));
      timings.push(await time(service.baseUrl, `${label}, an operator's token`, options.requests, () => path, operatorToken));
    }
    const loadAfter = loadavg()[0];
    out(`machine load average (1 min, ${cpu.length} cores): ${loadBefore.toFixed(2)} before the reads, ${loadAfter.toFixed(2)} after`);
    out(`| read (${database.kind}, ${options.keys} keys, ${options.events} events) | median ms | p95 ms | max ms | failures |`);
    out('|---|---:|---:|---:|---:|');
    for (const t of timings) out(`| ${t.label} | ${t.median.toFixed(1)} | ${t.p95.toFixed(1)} | ${t.max.toFixed(1)} | ${t.failures} |`);
    const failures = timings.reduce((n, t) => n + t.failures, 0);
    out();
    out(failures === 0 ? 'result: every read answered 200' : `result: FAILED, ${failures} reads did not answer 200`);
    if (!options.smoke) {
      const result: AdminScaleResult = {
        schema: 1,
        kind: 'admin-scale',
        date: startedAt.toISOString(),
        database: database.kind,
        machine: thisMachine(),
        ...currentCommit(ROOT),
        options: { keys: options.keys, events: options.events, requests: options.requests },
        seeding_seconds: seeded.seconds,
        start_to_healthy_ms: [service.startToHealthyMs],
        load_average: { before: loadBefore, after: loadAfter },
        reads: timings.map(({ label, median, p95, max, failures }) => ({ label, median, p95, max, failures })),
        failures,
      };
      out(`results: ${writeResult(result, resultsFolder(ROOT))}`);
    }
    if (options.keep) out(`kept: ${folder} and ${database.url}`);
    return failures === 0 ? 0 : 1;
  } finally {
    await service?.stop();
    if (!options.keep) {
      await database.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  }
}
