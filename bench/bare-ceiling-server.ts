/**
 * The bare ceiling of the benchmark: Fastify 5, logger off, and
 * nothing but the storage work, so that the service's figure says how much of
 * the machine it leaves to everything else it does.
 *
 * - validate: one route that takes `api_key` from the JSON body, hashes it
 *   with SHA-256, reads the key row by digest through one prepared statement
 *   (better-sqlite3 on SQLite, one named pg query on PostgreSQL) and sends the
 *   row as JSON. No format check, no decision, no user or usage join.
 * - analytics, its write twin: the same read, then the service's atomic
 *   consumption step on the key's license (the adapter's own statements: on
 *   SQLite the counter UPSERT … RETURNING and the event INSERT in one
 *   `BEGIN IMMEDIATE` better-sqlite3 transaction, on PostgreSQL the one CTE
 *   statement), answering the new total. The limit is the key's override or
 *   its tier's (config/tiers.json); the body's fields are stored as sent.
 * - health: `{}` (bench-process.ts waits for a 200 here).
 *
 * No validation, rate limits, log lines, metrics or headers. Started by
 * bench/main.ts with DATABASE_URL, HOST, PORT, DATABASE_POOL_SIZE and TIERS_FILE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { Pool } from 'pg';

interface KeyRow {
  id: string;
  license_id: string;
  environment: string;
  license_type: string;
  monthly_limit_source: string;
  monthly_limit: string | number | null;
  [column: string]: unknown;
}

const EVENT_COLUMNS =
  'id, key_id, environment, event_type, model_name, inference_type, duration_ms, success, error_message, metadata, period, received_at';

interface Storage {
  key(digest: string): Promise<KeyRow | undefined>;
  /** The event's 12 column values, the license, the cost and the limit; the new total, or null when refused. */
  consume(values: unknown[], license: string, limit: number | null): Promise<number | null>;
}

function sqliteStorage(path: string): Storage {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const key = db.prepare('SELECT * FROM api_keys WHERE digest = ?');
  const upsert =
    'INSERT INTO usage_counters (license_id, period, used) VALUES (?, ?, ?) ' +
    'ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';
  const within = db.prepare(`${upsert} WHERE usage_counters.used + excluded.used <= ? RETURNING used`);
  const unlimited = db.prepare(`${upsert} RETURNING used`);
  const insert = db.prepare(`INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${EVENT_COLUMNS.split(',').map(() => '?')})`);
  const step = db.transaction((values: unknown[], license: string, limit: number | null): number | null => {
    const row = (limit === null ? unlimited.get(license, values[10], 1) : within.get(license, values[10], 1, limit)) as
      { used: number } | undefined;
    if (!row) return null;
    insert.run(values);
    return Number(row.used);
  });
  return {
    key: async (digest) => key.get(digest) as KeyRow | undefined,
    consume: async (values, license, limit) => step.immediate(values, license, limit),
  };
}

function postgresStorage(url: string, poolSize: number): Storage {
  const pool = new Pool({ connectionString: url, max: poolSize, application_name: 'svc-bench-bare-ceiling' });
  const insertValues = EVENT_COLUMNS.split(',')
    .map((_, i) => `$${i + 1}`)
    .join(', ');
  const consuming = (guard: string) =>
    `WITH consumed AS (
       INSERT INTO usage_counters (license_id, period, used) VALUES ($13, $11, $14)
       ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used ${guard}
       RETURNING used),
     stored AS (INSERT INTO analytics_events (${EVENT_COLUMNS}) SELECT ${insertValues} FROM consumed RETURNING 1)
     SELECT used, (SELECT COUNT(*) FROM stored) AS stored FROM consumed`;
  const within = consuming('WHERE usage_counters.used + excluded.used <= $15');
  const unlimited = consuming('');
  return {
    key: async (digest) =>
      (await pool.query<KeyRow>({ name: 'bare_key', text: 'SELECT * FROM api_keys WHERE digest = $1', values: [digest] })).rows[0],
    consume: async (values, license, limit) => {
      const rows = (
        await pool.query<{ used: string }>(
          limit === null
            ? { name: 'bare_consume_unlimited', text: unlimited, values: [...values, license, 1] }
            : { name: 'bare_consume', text: within, values: [...values, license, 1, limit] },
        )
      ).rows;
      return rows.length === 0 ? null : Number(rows[0].used);
    },
  };
}

const tierLimits = JSON.parse(readFileSync(process.env.TIERS_FILE ?? 'config/tiers.json', 'utf8')) as Record<
  string,
  { monthly_limit: number | null }
>;
const limitOf = (key: KeyRow): number | null =>
  key.monthly_limit_source === 'override'
    ? key.monthly_limit === null
      ? null
      : Number(key.monthly_limit)
    : (tierLimits[key.license_type]?.monthly_limit ?? null);
const digestOf = (body: unknown): string => {
  const key = (body as { api_key?: unknown } | undefined)?.api_key;
  return createHash('sha256')
    .update(typeof key === 'string' ? key : '')
    .digest('hex');
};

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? '';
  const storage = url.startsWith('sqlite:')
    ? sqliteStorage(url.slice('sqlite:'.length))
    : postgresStorage(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));
  const app = Fastify({ logger: false });

  app.post('/v1/auth/validate', async (request, reply) => {
    const row = await storage.key(digestOf(request.body));
    if (!row) return reply.status(401).send({ error: 'INVALID_KEY' });
    return row;
  });

  app.post('/v1/analytics/log', async (request, reply) => {
    const row = await storage.key(digestOf(request.body));
    if (!row) return reply.status(401).send({ error: 'INVALID_KEY' });
    const body = request.body as Record<string, unknown>;
    const now = new Date();
    const period = now.toISOString().slice(0, 7);
    const id = `evt_${randomBytes(12).toString('hex')}`;
    const values = [
      id,
      row.id,
      row.environment,
      body.event_type,
      body.model_name ?? null,
      body.inference_type ?? null,
      body.duration_ms ?? null,
      body.success === undefined || body.success === null ? null : url.startsWith('sqlite:') ? Number(body.success) : body.success,
      body.error_message ?? null,
      body.metadata == null ? null : JSON.stringify(body.metadata),
      period,
      url.startsWith('sqlite:') ? now.toISOString() : now,
    ];
    const used = await storage.consume(values, row.license_id, limitOf(row));
    if (used === null) return reply.status(429).send({ error: 'QUOTA_EXCEEDED' });
    return reply.status(202).send({ logged: true, event_id: id, used });
  });

  app.get('/api/health', async () => ({}));

  await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
  const stop = () =>
    void app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`bare ceiling server failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
