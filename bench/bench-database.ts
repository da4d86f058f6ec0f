import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';

/** The database of one benchmark run: a new SQLite file, or a new PostgreSQL database dropped afterwards. */
export interface BenchDatabase {
  readonly kind: 'sqlite' | 'postgres';
  readonly url: string;
  /** For the report: never a password. */
  readonly label: string;
  drop(): Promise<void>;
}

export const DEFAULT_POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export function sqliteBenchDatabase(folder: string): BenchDatabase {
  const path = join(folder, 'bench.db');
  return { kind: 'sqlite', url: `sqlite:${path}`, label: `SQLite file ${path}`, drop: async () => undefined };
}

/**
 * A fresh database on the server `adminUrl` names (its own database is only
 * connected to, never written): created here, dropped by `drop()`.
 */
export async function postgresBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const host = new URL(adminUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
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
    label: `PostgreSQL database ${name} on ${url.host} (created for this run, dropped after)`,
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
