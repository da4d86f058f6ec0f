/**
 * The ceiling fixture of the benchmark: a bare Fastify server doing the same
 * storage work as the service on the same database, and as little else as
 * possible. What the service achieves is reported as a fraction of this.
 *
 * - validate: the key format check, the SHA-256 digest, one indexed lookup by
 *   digest that also reads the user and the period's usage (one statement,
 *   one round trip on PostgreSQL and MySQL), the expiry/revocation/quota decision.
 * - analytics: the same lookup by digest (the key only), then the same
 *   conditional UPSERT of the counter and INSERT of the event: one
 *   better-sqlite3 transaction on SQLite, one CTE statement on PostgreSQL;
 *   on MySQL / MariaDB one transaction on one pooled connection: a guarded
 *   `UPDATE … SET used = LAST_INSERT_ID(used + cost)` whose result's insertId
 *   is the new total, and only when it matched no row an `INSERT IGNORE` of
 *   the counter (on its own, between two transactions) and the UPDATE once
 *   more (no row again: refused, rolled back); then the INSERT of the event
 *   and COMMIT.
 * - models: the lookup by digest, then every model row, filtered by tier.
 * - health: `SELECT 1`.
 *
 * No rate limiting, no validation beyond the key and the event type, no
 * framework. Started by bench/main.ts with DATABASE_URL, HOST, PORT,
 * DATABASE_POOL_SIZE and TIERS_FILE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type ExecuteValues, type ResultSetHeader, type RowDataPacket, createPool } from 'mysql2/promise';
import { Pool } from 'pg';

type Tier = 'free' | 'research' | 'commercial' | 'enterprise';
const RANK: Record<string, number> = { free: 0, research: 1, commercial: 2, enterprise: 3 };

interface KeyRow {
  id: string;
  user_id: string;
  environment: string;
  license_type: Tier;
  expires_at: string | Date;
  revoked_at: string | Date | null;
  monthly_limit_source: string;
  monthly_limit: string | number | null;
}
interface ContextRow extends KeyRow {
  email: string;
  name: string | null;
  organization: string | null;
  used: string | number | null;
}
interface ModelRow {
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
 * The storage work, per engine. Counters are per license (CONTRACT 16); the
 * seeded keys are never rotated, so each is its own license and the ceiling
 * consumes on the key's id (the event's `key_id`) as the license id.
 */
interface Storage {
  context(digest: string, period: string): Promise<ContextRow | undefined>;
  key(digest: string): Promise<KeyRow | undefined>;
  appendConsuming(values: unknown[], cost: number, limit: number | null): Promise<number | null>;
  models(): Promise<ModelRow[]>;
  ping(): Promise<void>;
}

const KEY_COLUMNS = 'k.id, k.user_id, k.environment, k.license_type, k.expires_at, k.revoked_at, k.monthly_limit_source, k.monthly_limit';
const EVENT_COLUMNS =
  'id, key_id, environment, event_type, model_name, inference_type, duration_ms, success, error_message, metadata, period, received_at';

function sqliteStorage(path: string): Storage {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const context = db.prepare(
    `SELECT ${KEY_COLUMNS}, u.email, u.name, u.organization, c.used FROM api_keys k JOIN users u ON u.id = k.user_id ` +
      'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = ? WHERE k.digest = ?',
  );
  const key = db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.digest = ?`);
  const upsert =
    'INSERT INTO usage_counters (license_id, period, used) VALUES (?, ?, ?) ' +
    'ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';
  const consume = db.prepare(`${upsert} WHERE usage_counters.used + excluded.used <= ? RETURNING used`);
  const consumeUnlimited = db.prepare(`${upsert} RETURNING used`);
  const used = db.prepare('SELECT used FROM usage_counters WHERE license_id = ? AND period = ?');
  const insert = db.prepare(
    `INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${EVENT_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const models = db.prepare('SELECT * FROM models ORDER BY paradigm, name');
  const ping = db.prepare('SELECT 1');
  const append = db.transaction((values: unknown[], cost: number, limit: number | null): number | null => {
    let total: number;
    if (cost > 0) {
      const row = (limit === null ? consumeUnlimited.get(values[1], values[10], cost) : consume.get(values[1], values[10], cost, limit)) as
        { used: number } | undefined;
      if (!row) return null;
      total = Number(row.used);
    } else {
      const row = used.get(values[1], values[10]) as { used: number } | undefined;
      total = row ? Number(row.used) : 0;
    }
    insert.run(...values);
    return total;
  });
  return {
    context: async (digest, period) => context.get(period, digest) as ContextRow | undefined,
    key: async (digest) => key.get(digest) as KeyRow | undefined,
    appendConsuming: async (values, cost, limit) =>
      append(
        values.map((v, i) => (i === 7 && typeof v === 'boolean' ? (v ? 1 : 0) : i === 11 ? (v as Date).toISOString() : v)),
        cost,
        limit,
      ),
    models: async () => models.all() as ModelRow[],
    ping: async () => void ping.get(),
  };
}

function postgresStorage(url: string, poolSize: number): Storage {
  const pool = new Pool({ connectionString: url, max: poolSize, application_name: 'svc-bench-ceiling' });
  const context = {
    name: 'ceiling_context',
    text:
      `SELECT ${KEY_COLUMNS}, u.email, u.name, u.organization, c.used FROM api_keys k JOIN users u ON u.id = k.user_id ` +
      'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = $1 WHERE k.digest = $2',
  };
  const key = { name: 'ceiling_key', text: `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.digest = $1` };
  const insertValues = EVENT_COLUMNS.split(',')
    .map((_, i) => `$${i + 1}`)
    .join(', ');
  const consuming = (guarded: boolean) =>
    `WITH consumed AS (
       INSERT INTO usage_counters (license_id, period, used) VALUES ($2, $11, $13)
       ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used
       ${guarded ? 'WHERE usage_counters.used + excluded.used <= $14' : ''}
       RETURNING used),
     stored AS (INSERT INTO analytics_events (${EVENT_COLUMNS}) SELECT ${insertValues} FROM consumed RETURNING 1)
     SELECT used, (SELECT COUNT(*) FROM stored) AS stored FROM consumed`;
  const consume = { name: 'ceiling_consume', text: consuming(true) };
  const consumeUnlimited = { name: 'ceiling_consume_unlimited', text: consuming(false) };
  const free = {
    name: 'ceiling_free_event',
    text: `WITH stored AS (INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${insertValues}) RETURNING 1)
           SELECT COALESCE((SELECT used FROM usage_counters WHERE license_id = $2 AND period = $11), 0) AS used,
                  (SELECT COUNT(*) FROM stored) AS stored`,
  };
  const models = { name: 'ceiling_models', text: 'SELECT * FROM models ORDER BY paradigm, name' };
  return {
    context: async (digest, period) => (await pool.query<ContextRow>({ ...context, values: [period, digest] })).rows[0],
    key: async (digest) => (await pool.query<KeyRow>({ ...key, values: [digest] })).rows[0],
    appendConsuming: async (values, cost, limit) => {
      const query =
        cost === 0
          ? { ...free, values }
          : limit === null
            ? { ...consumeUnlimited, values: [...values, cost] }
            : { ...consume, values: [...values, cost, limit] };
      const rows = (await pool.query<{ used: string }>(query)).rows;
      return rows.length === 0 ? null : Number(rows[0].used);
    },
    models: async () => (await pool.query<ModelRow>(models)).rows,
    ping: async () => void (await pool.query('SELECT 1')),
  };
}

/**
 * mysql2's promise pool with server-side prepared statements (`execute`, cached per connection),
 * the session options of the service's data source (UTC, BIGINT as strings, utf8mb4_bin).
 * Parameters added to a BIGINT are CAST to SIGNED: mysql2 binds a JS number as DOUBLE, and
 * `used + <double>` would be computed in floating point (inexact past 2^53).
 */
function mysqlStorage(url: string, poolSize: number): Storage {
  const pool = createPool({
    uri: url,
    connectionLimit: poolSize,
    maxIdle: poolSize,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4_bin',
    enableKeepAlive: true,
  });
  const context =
    `SELECT ${KEY_COLUMNS}, u.email, u.name, u.organization, c.used FROM api_keys k JOIN users u ON u.id = k.user_id ` +
    'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = ? WHERE k.digest = ?';
  const key = `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.digest = ?`;
  const consume =
    'UPDATE usage_counters SET used = LAST_INSERT_ID(used + CAST(? AS SIGNED)) WHERE license_id = ? AND period = ? AND used + CAST(? AS SIGNED) <= CAST(? AS SIGNED)';
  const consumeUnlimited = 'UPDATE usage_counters SET used = LAST_INSERT_ID(used + CAST(? AS SIGNED)) WHERE license_id = ? AND period = ?';
  const ensureCounter = 'INSERT IGNORE INTO usage_counters (license_id, period, used) VALUES (?, ?, 0)';
  const used = 'SELECT used FROM usage_counters WHERE license_id = ? AND period = ?';
  const insert = `INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${EVENT_COLUMNS.split(',')
    .map(() => '?')
    .join(', ')})`;
  return {
    context: async (digest, period) => (await pool.execute<RowDataPacket[]>(context, [period, digest]))[0][0] as ContextRow | undefined,
    key: async (digest) => (await pool.execute<RowDataPacket[]>(key, [digest]))[0][0] as KeyRow | undefined,
    appendConsuming: async (values, cost, limit) => {
      const keyId = values[1] as string;
      const period = values[10] as string;
      const connection = await pool.getConnection();
      try {
        await connection.beginTransaction();
        let total: number;
        if (cost > 0) {
          const update = () =>
            limit === null
              ? connection.execute<ResultSetHeader>(consumeUnlimited, [cost, keyId, period])
              : connection.execute<ResultSetHeader>(consume, [cost, keyId, period, cost, limit]);
          let [result] = await update();
          if (result.affectedRows === 0) {
            // No counter yet for the period, or the quota refuses: make sure the row exists and try
            // once more. The INSERT IGNORE runs on its own (autocommit), between two transactions:
            // inside the transaction its shared lock on the duplicate row, held to COMMIT, deadlocks
            // concurrent first uses of a key (ER_LOCK_DEADLOCK, under READ COMMITTED as well).
            // A counter row of 0 reads as no row everywhere.
            await connection.rollback();
            await connection.execute(ensureCounter, [keyId, period]);
            await connection.beginTransaction();
            [result] = await update();
            if (result.affectedRows === 0) {
              await connection.rollback();
              return null;
            }
          }
          total = Number(result.insertId);
        } else {
          const [rows] = await connection.execute<RowDataPacket[]>(used, [keyId, period]);
          total = rows.length === 0 ? 0 : Number(rows[0].used);
        }
        await connection.execute(insert, values as ExecuteValues);
        await connection.commit();
        return total;
      } catch (error) {
        await connection.rollback().catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    models: async () => (await pool.execute<RowDataPacket[]>('SELECT * FROM models ORDER BY paradigm, name'))[0] as ModelRow[],
    ping: async () => void (await pool.execute('SELECT 1')),
  };
}

// ---- the decisions (the service takes these from its domain) ----

const tiers = JSON.parse(readFileSync(process.env.TIERS_FILE ?? 'config/tiers.json', 'utf8')) as Record<
  Tier,
  { adds: string[]; monthly_limit: number | null }
>;
const FEATURES = {} as Record<Tier, string[]>;
{
  let inherited: string[] = [];
  for (const tier of ['free', 'research', 'commercial', 'enterprise'] as Tier[]) {
    inherited = [...inherited, ...tiers[tier].adds];
    FEATURES[tier] = inherited;
  }
}
const KEY_FORM = new RegExp(`^${process.env.KEY_PREFIX ?? 'svc'}_(live|test)_[0-9a-fA-F]{48}$`);

function dateOf(value: string | Date): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}${/[Zz]|[+-]\d\d:\d\d$/.test(value) ? '' : 'Z'}`);
}
function secondTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
function limitOf(key: KeyRow): number | null {
  return key.monthly_limit_source === 'override'
    ? key.monthly_limit === null
      ? null
      : Number(key.monthly_limit)
    : tiers[key.license_type].monthly_limit;
}
function periodOf(now: Date): { key: string; resetsAt: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return { key: `${year}-${String(month).padStart(2, '0')}`, resetsAt: new Date(Date.UTC(year, month, 1)) };
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

function digestOf(presented: unknown): string {
  if (typeof presented !== 'string' || presented.trim() === '') throw new Refusal(400, 'MISSING_KEY');
  if (!KEY_FORM.test(presented)) throw new Refusal(400, 'INVALID_FORMAT');
  return createHash('sha256').update(presented, 'utf8').digest('hex');
}
function admit<T extends KeyRow>(row: T | undefined, now: Date): T {
  if (!row || row.revoked_at) throw new Refusal(401, 'INVALID_KEY');
  if (now.getTime() >= dateOf(row.expires_at).getTime()) throw new Refusal(401, 'KEY_EXPIRED');
  return row;
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? '';
  const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  const storage = url.startsWith('sqlite:')
    ? sqliteStorage(url.slice('sqlite:'.length))
    : url.startsWith('mysql://')
      ? mysqlStorage(url, poolSize)
      : postgresStorage(url, poolSize);
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  app.setErrorHandler((error: unknown, _request: FastifyRequest, reply: FastifyReply) => {
    const refusal = error instanceof Refusal ? error : new Refusal(500, 'SERVER_ERROR');
    void reply.status(refusal.status).send({ error: refusal.code, code: refusal.code });
  });

  app.post('/v1/auth/validate', async (request, reply) => {
    const digest = digestOf((request.body as Record<string, unknown> | undefined)?.api_key);
    const now = new Date();
    const period = periodOf(now);
    const row = admit(await storage.context(digest, period.key), now);
    const limit = limitOf(row);
    const used = row.used === null ? 0 : Number(row.used);
    if (limit !== null && used >= limit) throw new Refusal(429, 'QUOTA_EXCEEDED');
    void reply.header('cache-control', 'no-store');
    return {
      valid: true,
      user_id: row.user_id,
      email: row.email,
      name: row.name,
      organization: row.organization,
      license_type: row.license_type,
      features: FEATURES[row.license_type],
      quota: {
        monthly_limit: limit,
        used,
        remaining: limit === null ? null : Math.max(0, limit - used),
        resets_at: secondTimestamp(period.resetsAt),
      },
      expires_at: secondTimestamp(dateOf(row.expires_at)),
    };
  });

  app.post('/v1/analytics/log', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const digest = digestOf(body.api_key);
    const now = new Date();
    const key = admit(await storage.key(digest), now);
    const eventType = body.event_type;
    if (eventType !== 'inference' && eventType !== 'model_load' && eventType !== 'error') throw new Refusal(400, 'INVALID_EVENT_TYPE');
    const period = periodOf(now);
    const limit = limitOf(key);
    const id = `evt_${randomBytes(12).toString('hex')}`;
    const values = [
      id,
      key.id,
      key.environment,
      eventType,
      body.model_name ?? null,
      body.inference_type ?? null,
      body.duration_ms ?? null,
      body.success ?? null,
      body.error_message ?? null,
      body.metadata == null ? null : JSON.stringify(body.metadata),
      period.key,
      now,
    ];
    const used = await storage.appendConsuming(values, eventType === 'inference' ? 1 : 0, limit);
    if (used === null) throw new Refusal(429, 'QUOTA_EXCEEDED');
    void reply.status(202);
    return { logged: true, event_id: id, quota: { used, remaining: limit === null ? null : Math.max(0, limit - used) } };
  });

  app.get('/v1/models/list', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const key = admit(await storage.key(digestOf(request.headers['x-api-key'] ?? query.api_key)), new Date());
    const base = `${request.protocol}://${request.host}/model-files`;
    const models = (await storage.models())
      .filter((m) => (m.stored_file !== null || m.download_url !== null) && (m.owner_user_id === null || m.owner_user_id === key.user_id))
      .filter(
        (m) => RANK[key.license_type] >= RANK[m.owner_user_id !== null && RANK[m.requires_license] < 2 ? 'commercial' : m.requires_license],
      )
      .map((m) => ({
        name: m.name,
        version: m.version,
        type: m.type,
        paradigm: m.paradigm,
        n_features: m.n_features,
        n_classes: m.n_classes,
        size_mb: m.size_bytes === null ? null : Number(m.size_bytes) / 1_000_000,
        size_bytes: m.size_bytes === null ? null : Number(m.size_bytes),
        download_url: m.download_url ?? `${base}/${encodeURIComponent(m.stored_file as string)}`,
        checksum: m.checksum,
        requires_license: m.requires_license,
        metadata: JSON.parse(m.metadata) as unknown,
      }));
    void reply.header('cache-control', 'no-store');
    return { models, total: models.length };
  });

  app.get('/api/health', async (_request, reply) => {
    await storage.ping();
    void reply.header('cache-control', 'no-store');
    return { status: 'healthy', timestamp: new Date().toISOString(), version: 'v1', database: 'connected' };
  });

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
  console.error(`ceiling server failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
