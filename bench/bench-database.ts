import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';

/** The database of one benchmark run: a new SQLite file, or a new PostgreSQL or MySQL database dropped afterwards. */
export interface BenchDatabase {
  readonly kind: 'sqlite' | 'postgres' | 'mysql';
  readonly url: string;
  /** For the report: never a password. */
  readonly label: string;
  /**
   * Which command lines (of `ps`) are the database server's processes working
   * for this run (their CPU counts as the benchmark's); none for SQLite, which
   * runs inside the service.
   */
  readonly serverProcess?: (commandLine: string) => boolean;
  /** Whether `bench/bare-ceiling-server.ts` reads this database (SQLite and PostgreSQL; MySQL runs the full ceiling only). */
  readonly hasBareCeiling: boolean;
  drop(): Promise<void>;
}

export const DEFAULT_POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_MYSQL_ADMIN_URL = 'mysql://root@127.0.0.1:3306/test';

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

export function sqliteBenchDatabase(folder: string): BenchDatabase {
  const path = join(folder, 'bench.db');
  return { kind: 'sqlite', url: `sqlite:${path}`, label: `SQLite file ${path}`, hasBareCeiling: true, drop: async () => undefined };
}

/**
 * A fresh database on the server `adminUrl` names (its own database is only
 * connected to, never written): created here, dropped by `drop()`.
 */
export async function postgresBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const host = new URL(adminUrl).hostname;
  if (!LOCAL_HOSTS.includes(host)) {
    throw new Error('the benchmark only loads a PostgreSQL server on this machine (127.0.0.1)');
  }
  const name = `svc_bench_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    kind: 'postgres',
    url: url.toString(),
    hasBareCeiling: true,
    label: `PostgreSQL database ${name} on ${url.host} (created for this run, dropped after)`,
    // the backends serving the bench database, and the server's background writers (no client address)
    serverProcess: (line) => line.startsWith('postgres:') && (line.includes(` ${name} `) || !/\d+\.\d+\.\d+\.\d+\(\d+\)/.test(line)),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh MySQL / MariaDB database on the server `adminUrl` names (its own
 * database is only connected to, never written): created here (utf8mb4_bin,
 * as the migrations' tables), dropped by `drop()`.
 */
export async function mysqlBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const host = new URL(adminUrl).hostname;
  if (!LOCAL_HOSTS.includes(host)) {
    throw new Error('the benchmark only loads a MySQL / MariaDB server on this machine (127.0.0.1)');
  }
  const name = `svc_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const connection = await createConnection({ uri: adminUrl, connectTimeout: 5000 });
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  };
  await admin(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    kind: 'mysql',
    url: url.toString(),
    hasBareCeiling: false,
    label: `MySQL / MariaDB database ${name} on ${url.host} (created for this run, dropped after)`,
    // one process, a thread per connection: all of it works for the benchmark
    serverProcess: (line) => /(^|\/)(mariadbd|mysqld)$/.test(line.split(' ')[0]),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin(`DROP DATABASE IF EXISTS ${name}`);
    },
  };
}
