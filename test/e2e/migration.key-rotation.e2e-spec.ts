import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp } from '../harness/create-test-app';
import { openWithout } from '../harness/production-options';
import { sha256Hex } from '../harness/sha256';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';

const SECRET = `svc_live_${'ab'.repeat(24)}`;
const OTHER = `svc_live_${'cd'.repeat(24)}`;
const digest = sha256Hex;
const period = new Date().toISOString().slice(0, 7);

/**
 * Migration 1764000000000 (CONTRACT 16) on data written before it, on the
 * project's database: every existing key becomes its own license, and its
 * counters become the license's, so nothing is reset or lost.
 */
describe('migration 1764000000000: existing keys become licenses of their own', () => {
  let folder: string;
  let database: TestDatabase;
  let t: TestApp | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-migration-'));
    database = await createTestDatabase(folder, undefined, { empty: true });
    const old = await openWithout(database.url, '1764000000000');
    try {
      const when = '2026-01-05 10:00:00';
      const future = '2036-01-05 10:00:00';
      await old.query(
        `INSERT INTO users (id, email, name, organization, created_at) VALUES ('usr_old', 'old@example.org', NULL, NULL, '${when}')`,
      );
      for (const [id, secret, limit] of [
        ['key_old_a', SECRET, '100'],
        ['key_old_b', OTHER, 'NULL'],
      ]) {
        await old.query(
          `INSERT INTO api_keys (id, user_id, digest, display_prefix, environment, license_type, expires_at, revoked_at, monthly_limit_source, monthly_limit, created_at)
           VALUES ('${id}', 'usr_old', '${digest(secret)}', '${secret.slice(0, 12)}', 'live', 'research', '${future}', NULL, '${limit === 'NULL' ? 'tier' : 'override'}', ${limit}, '${when}')`,
        );
      }
      await old.query(`INSERT INTO usage_counters (key_id, period, used) VALUES ('key_old_a', '${period}', 42)`);
      await old.query(`INSERT INTO usage_counters (key_id, period, used) VALUES ('key_old_b', '${period}', 7)`);
    } finally {
      await old.destroy();
    }
    t = await TestApp.start({ env: { DATABASE_URL: database.url, SAMPLE_MODELS: 'false' } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('each key is its own license, its counter kept', async () => {
    for (const [id, used] of [
      ['key_old_a', 42],
      ['key_old_b', 7],
    ] as const) {
      const shown = await t!.admin('GET', `/admin/v1/keys/${id}`);
      expect(shown.body).toMatchObject({ key_id: id, license_id: id, rotated_from: null, rotated_to: null, quota: { used } });
    }
    const validated = await t!.post('/v1/auth/validate', { api_key: SECRET });
    expect(validated.body.quota).toMatchObject({ monthly_limit: 100, used: 42, remaining: 58 });
  });

  it('a migrated key rotates, and its successor carries the counter on', async () => {
    const rotated = await t!.post('/v1/auth/rotate', { api_key: SECRET });
    expect(rotated.status).toBe(200);
    expect((await t!.post('/v1/analytics/log', { api_key: rotated.body.api_key, event_type: 'inference' })).body.quota).toEqual({
      used: 43,
      remaining: 57,
    });
    const other = await t!.post('/v1/auth/validate', { api_key: OTHER });
    expect(other.body.quota.used).toBe(7);
  });
});
