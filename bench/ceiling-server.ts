/**
 * The ceiling fixture of the benchmark: a bare Fastify server doing the same
 * storage work as the service on the same database, and as little else as
 * possible. What the service achieves is reported as a fraction of this.
 *
 * - validate: the key format check, the SHA-256 digest, one indexed lookup by
 *   digest that also reads the user and the period's usage (one statement,
 *   one round trip on PostgreSQL and MySQL), the expiry/revocation/quota decision.
 * - analytics: the same lookup by digest (the key only), then the same
 *   conditional UPSERT of the counter and INSERT of the event, as the
 *   database's adapter does them (each database's storage is its
 *   BenchDialect's, bench/dialects/).
 * - models: the lookup by digest, then every model row, filtered by tier.
 * - health: `SELECT 1`.
 *
 * No rate limiting, no validation beyond the key and the event type, no
 * framework. Started by bench/main.ts with DATABASE_URL, HOST, PORT,
 * DATABASE_POOL_SIZE and TIERS_FILE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type CeilingKeyRow as KeyRow, type Tier, dialectOfUrl } from './dialects';

const RANK: Record<string, number> = { free: 0, research: 1, commercial: 2, enterprise: 3 };

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
  const storage = dialectOfUrl(url).ceilingStorage(url, poolSize);
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
