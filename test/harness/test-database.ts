import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';

/** Which database the e2e suite runs on: `TEST_DATABASE=postgres` or the SQLite default. */
export type TestDatabaseKind = 'sqlite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
}

/** The server the Postgres run uses; each test file creates its own database on it and drops it. */
export const TEST_POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database of a test's own: a SQLite file in its folder, or a new PostgreSQL database. */
export interface TestDatabase {
  readonly kind: TestDatabaseKind;
  readonly url: string;
  /** Everything stored, as text, to look for secrets that must never be stored. */
  contents(): Promise<string>;
  drop(): Promise<void>;
}

export async function createTestDatabase(folder: string, kind: TestDatabaseKind = testDatabaseKind()): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const path = join(folder, 'service.db');
    return {
      kind,
      url: `sqlite:${path}`,
      contents: async () =>
        [path, `${path}-wal`].filter(existsSync).map((file) => readFileSync(file).toString('latin1')).join('\n'),
      drop: async () => undefined,
    };
  }
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    contents: () => postgresContents(url.toString()),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function postgresContents(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
    const parts: string[] = [];
    for (const { tablename } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${tablename}" t`);
      parts.push(...rows.rows.map((r) => r.row));
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}
