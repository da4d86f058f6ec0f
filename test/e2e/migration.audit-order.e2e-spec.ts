import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';
import { openWithout } from '../harness/production-options';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';

interface Listed {
  id: string;
  at: string;
}

/**
 * Migration 1764200000000 on entries written before it, on the
 * project's database: the audit log keeps the order it listed them in (time,
 * then id), and entries appended afterwards in the same millisecond come
 * first, in the order they happened; the cursor pages across both.
 */
describe('migration 1764200000000: the audit log keeps its order and continues in the order of appending', () => {
  let folder: string;
  let database: TestDatabase;
  let t: TestApp | undefined;
  const clock = new FixedClock(new Date('2026-06-01T00:00:00.000Z'));

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-migration-'));
    database = await createTestDatabase(folder, undefined, { empty: true });
    const old = await openWithout(database.url, '1764200000000');
    try {
      // times as the service writes them (on SQLite, UTC text to the millisecond)
      for (const [id, at] of [
        ['aud_m', '2026-01-05 10:00:00.000'],
        ['aud_old', '2026-01-05 09:59:59.000'],
        ['aud_z', '2026-01-05 10:00:00.000'],
        ['aud_a', '2026-01-05 10:00:00.000'],
      ]) {
        await old.query(
          `INSERT INTO audit_log (id, at, action, key_id, reason, details) VALUES ('${id}', '${at}', 'installer.token_issued', NULL, NULL, NULL)`,
        );
      }
    } finally {
      await old.destroy();
    }
    t = await TestApp.start({ env: { DATABASE_URL: database.url, SAMPLE_MODELS: 'false' }, clock });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  const list = async (query: string): Promise<{ entries: Listed[]; next_cursor: string | null }> => {
    const res = await t!.admin('GET', `/admin/v1/audit?${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('lists the entries written before it as before: time, then id, newest first', async () => {
    expect((await list('limit=10')).entries.map((e) => e.id)).toEqual(['aud_z', 'aud_m', 'aud_a', 'aud_old']);
  });

  it('lists entries appended in the same instant as the old ones first, newest first, and pages across them', async () => {
    const before = (await list('limit=10')).entries;
    clock.set(new Date(before[0].at)); // the instant of the old entries, as the service reads it back
    const issued: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t!.admin('POST', '/admin/v1/keys', { license_type: 'research', email: `order-${i}@example.org` });
      expect(res.status).toBe(201);
      issued.push(res.body.key_id);
    }

    const all = (await list('limit=50')).entries;
    expect(all.slice(0, 4).map((e) => (e as unknown as { key_id: string }).key_id)).toEqual([...issued].reverse());
    expect(all.slice(4).map((e) => e.id)).toEqual(['aud_z', 'aud_m', 'aud_a', 'aud_old']);
    const paged: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages === 0 || (cursor !== null && pages < 10); pages++) {
      const page: { entries: Listed[]; next_cursor: string | null } = await list(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.entries.map((e) => e.id));
      cursor = page.next_cursor;
    }
    expect(paged).toEqual(all.map((e) => e.id));
  });
});
