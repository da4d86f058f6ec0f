import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Connection, type RowDataPacket, createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { productionOptions } from './production-options';
import { TEST_MYSQL_ADMIN_URL, TEST_POSTGRES_ADMIN_URL, templateName } from './test-servers';

/** Which database the e2e suite runs on: `TEST_DATABASE=postgres`, `TEST_DATABASE=mysql` or the SQLite default. */
export type TestDatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export function testDatabaseKind(): TestDatabaseKind {
  const kind = process.env.TEST_DATABASE;
  return kind === 'postgres' || kind === 'mysql' ? kind : 'sqlite';
}

export { TEST_MYSQL_ADMIN_URL, TEST_POSTGRES_ADMIN_URL, templateName } from './test-servers';

/** A database of a test's own: a SQLite file in its folder, or a new PostgreSQL or MySQL database. */
export interface TestDatabase {
  readonly kind: TestDatabaseKind;
  readonly url: string;
  /** Everything stored, as text, to look for secrets that must never be stored. */
  contents(): Promise<string>;
  drop(): Promise<void>;
}

/** How a test database starts: with every migration applied (the default), or empty, for a test of the migrations themselves. */
export interface TestDatabaseOptions {
  readonly empty?: boolean;
}

/**
 * A database of the test's own. Unless `empty`, it starts with every migration applied, copied from a
 * template migrated once per run (TEST_RUN_ID, set by global-setup.ts): `CREATE DATABASE ... TEMPLATE`
 * on PostgreSQL, the template's tables re-created from `SHOW CREATE TABLE` on MySQL, a copied file on
 * SQLite. The service's start-up then finds nothing to migrate, exactly as on an up-to-date install.
 */
export async function createTestDatabase(
  folder: string,
  kind: TestDatabaseKind = testDatabaseKind(),
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const migrated = !options.empty;
  if (kind === 'sqlite') {
    const path = join(folder, 'service.db');
    if (migrated) copyFileSync(await sqliteTemplate(), path);
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
  if (kind === 'mysql') return createMySqlDatabase(name, migrated);
  const template = migrated ? await postgresTemplate() : null;
  await withAdmin(async (admin) => {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    // a test database need not survive a crash of the server: its commits return without waiting for
    // the WAL to reach the disk (what they read and write, and their isolation, are unchanged)
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  const url = postgresUrl(name);
  return {
    kind,
    url: url.toString(),
    contents: () => postgresContents(url.toString()),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

function postgresUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function mySqlUrl(name: string): string {
  const url = new URL(TEST_MYSQL_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Applies every migration to the (empty) database at `url`, as the service's start-up does. */
async function migrate(url: string): Promise<void> {
  const dataSource = await new DataSource(productionOptions(url)).initialize();
  await dataSource.destroy();
}

let sqliteTemplateFile: Promise<string> | undefined;

/** A migrated SQLite file, made once per worker process and copied for each test. */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), 'svc-template-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const path = join(folder, 'service.db');
    await migrate(`sqlite:${path}`); // closing the only connection checkpoints the WAL into the file
    return path;
  })();
  return sqliteTemplateFile;
}

/** A number for the server's advisory lock that guards building a template. */
function lockNumber(name: string): number {
  return createHash('sha256').update(name).digest().readInt32BE(0);
}

let postgresTemplateName: Promise<string | null> | undefined;

/**
 * This run's migrated PostgreSQL template: the first worker to ask builds it under an advisory lock
 * (migrated under another name, then renamed, so a half-built one is never copied); the others wait
 * for the lock and find it. Null outside a run (each database is then migrated by the service).
 */
function postgresTemplate(): Promise<string | null> {
  postgresTemplateName ??= (async () => {
    const name = templateName();
    if (!name) return null;
    await withAdmin(async (admin) => {
      await admin.query('SELECT pg_advisory_lock($1)', [lockNumber(name)]);
      try {
        const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (found.rowCount) return;
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        await migrate(postgresUrl(building));
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } finally {
        await admin.query('SELECT pg_advisory_unlock($1)', [lockNumber(name)]);
      }
    });
    return name;
  })();
  return postgresTemplateName;
}

/** The statements that re-create a MySQL template's tables, and the tables that hold rows (the migrations' own). */
interface MySqlTemplate {
  readonly name: string;
  readonly creates: readonly string[];
  readonly filled: readonly string[];
}

let mySqlTemplateOf: Promise<MySqlTemplate | null> | undefined;

/**
 * This run's migrated MySQL template: built by the first worker under GET_LOCK (complete when its
 * migrations table lists every migration), then read once per worker as `SHOW CREATE TABLE` statements.
 */
function mySqlTemplate(): Promise<MySqlTemplate | null> {
  mySqlTemplateOf ??= (async () => {
    const name = templateName();
    if (!name) return null;
    const expected = (productionOptions(mySqlUrl(name)).migrations as unknown[]).length;
    await withMySqlAdmin(async (admin) => {
      const [[lock]] = await admin.query<RowDataPacket[]>('SELECT GET_LOCK(?, 300) AS got', [name]);
      if (Number(lock?.got) !== 1) throw new Error(`could not take the lock that guards the template ${name}`);
      try {
        const [[applied]] = await admin
          .query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${name}\`.migrations`)
          .catch(() => [[{ n: -1 }]] as unknown as [RowDataPacket[]]);
        if (Number(applied?.n) === expected) return;
        await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
        await migrate(mySqlUrl(name));
      } finally {
        await admin.query('SELECT RELEASE_LOCK(?)', [name]);
      }
    });
    return withMySqlAdmin(async (admin) => {
      const [tables] = await admin.query<RowDataPacket[]>({
        sql: `SHOW FULL TABLES FROM \`${name}\` WHERE Table_type = 'BASE TABLE'`,
        rowsAsArray: true,
      });
      const creates: string[] = [];
      const filled: string[] = [];
      for (const [table] of tables as unknown as Array<[string]>) {
        const [[shown]] = await admin.query<RowDataPacket[]>({ sql: `SHOW CREATE TABLE \`${name}\`.\`${table}\``, rowsAsArray: true });
        creates.push(String((shown as unknown as string[])[1]));
        const [[count]] = await admin.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${name}\`.\`${table}\``);
        if (Number(count?.n) > 0) filled.push(table);
      }
      return { name, creates, filled };
    });
  })();
  return mySqlTemplateOf;
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

async function createMySqlDatabase(name: string, migrated: boolean): Promise<TestDatabase> {
  const template = migrated ? await mySqlTemplate() : null;
  // the tables set their own charset and collation; the database's are the same, for anything else
  await withMySqlAdmin(async (admin) => {
    await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    if (!template) return;
    await admin.query(`USE ${name}`);
    await admin.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const create of template.creates) await admin.query(create);
    for (const table of template.filled) await admin.query(`INSERT INTO \`${table}\` SELECT * FROM \`${template.name}\`.\`${table}\``);
  });
  const url = mySqlUrl(name);
  return {
    kind: 'mysql',
    url,
    contents: () => mySqlContents(url),
    drop: () => withMySqlAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name}`)).then(() => undefined),
  };
}

async function withMySqlAdmin<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
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
    const [tables] = await connection.query<RowDataPacket[]>({ sql: 'SHOW TABLES', rowsAsArray: true });
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
