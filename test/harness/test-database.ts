import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';

/** Which database the e2e suite runs on: `TEST_DATABASE=postgres`, `TEST_DATABASE=mysql` or the SQLite default. */
export type TestDatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export function testDatabaseKind(): TestDatabaseKind {
  const kind = process.env.TEST_DATABASE;
  return kind === 'postgres' || kind === 'mysql' ? kind : 'sqlite';
}

/** The server the Postgres run uses; each test file creates its own database on it and drops it. */
export const TEST_POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server the MySQL / MariaDB run uses, the same way (its own database is only connected to). */
export const TEST_MYSQL_ADMIN_URL = process.env.TEST_MYSQL_ADMIN_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** A database of a test's own: a SQLite file in its folder, or a new PostgreSQL or MySQL database. */
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
        [path, `${path}-wal`]
          .filter(existsSync)
          .map((file) => readFileSync(file).toString('latin1'))
          .join('\n'),
      drop: async () => undefined,
    };
  }
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  if (kind === 'mysql') return createMySqlDatabase(name);
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

async function createMySqlDatabase(name: string): Promise<TestDatabase> {
  // the tables set their own charset and collation; the database's are the same, for anything else
  await withMySqlAdmin((admin) => admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`));
  const url = new URL(TEST_MYSQL_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind: 'mysql',
    url: url.toString(),
    contents: () => mySqlContents(url.toString()),
    drop: () => withMySqlAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name}`)).then(() => undefined),
  };
}

async function withMySqlAdmin<T>(work: (connection: import('mysql2/promise').Connection) => Promise<T>): Promise<T> {
  const connection = await createConnection({ uri: TEST_MYSQL_ADMIN_URL, connectTimeout: 5000 });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

/** Every row of every table, one line per row, each value as the server's text (dates as stored, binary as latin1). */
async function mySqlContents(url: string): Promise<string> {
  const connection = await createConnection({ uri: url, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
  try {
    const [tables] = await connection.query<import('mysql2/promise').RowDataPacket[]>({ sql: 'SHOW TABLES', rowsAsArray: true });
    const parts: string[] = [];
    for (const [table] of tables as unknown as Array<[string]>) {
      const [rows] = await connection.query({ sql: `SELECT * FROM \`${table}\``, rowsAsArray: true });
      for (const row of rows as unknown as unknown[][]) {
        parts.push(row.map((value) => (Buffer.isBuffer(value) ? value.toString('latin1') : String(value))).join('\t'));
      }
    }
    return parts.join('\n');
  } finally {
    await connection.end();
  }
}
