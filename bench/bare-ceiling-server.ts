/**
 * The bare ceiling of the benchmark: Fastify 5, logger off, and
 * nothing but the storage work, so that the service's figure says how much of
 * the machine it leaves to everything else it does.
 *
 * - validate: one route that takes `api_key` from the JSON body, hashes it
 *   with SHA-256, reads the key row by digest through one prepared statement
 *   (its database's, bench/dialects/) and sends the row as JSON. No format check, no decision, no user or usage join.
 * - analytics, its write twin: the same read, then the service's atomic
 *   consumption step on the key's license (the adapter's own statements, in
 *   the database's BenchDialect), answering the new total. The limit is the key's override or
 *   its tier's (config/tiers.json); the body's fields are stored as sent.
 * - health: `{}` (bench-process.ts waits for a 200 here).
 *
 * No validation, rate limits, log lines, metrics or headers. Started by
 * bench/main.ts with DATABASE_URL, HOST, PORT, DATABASE_POOL_SIZE and TIERS_FILE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { type BareKeyRow as KeyRow, dialectOfUrl } from './dialects';

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
  const dialect = dialectOfUrl(url);
  if (!dialect.bareCeilingStorage) throw new Error(`the bare ceiling does not read ${dialect.kind}`);
  const storage = dialect.bareCeilingStorage(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));
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
      body.success ?? null,
      body.error_message ?? null,
      body.metadata == null ? null : JSON.stringify(body.metadata),
      period,
      now,
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
