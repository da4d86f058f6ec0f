import { Client, Pool } from 'pg';
import {
  type BareKeyRow,
  type BenchDialect,
  CEILING_EVENT_COLUMNS,
  CEILING_KEY_COLUMNS,
  type CeilingContextRow,
  type CeilingKeyRow,
  type CeilingModelRow,
  ROWS_PER_INSERT,
  type ServerDatabaseKind,
  freshServerDatabase,
} from './dialect';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const URLS = /^postgres(ql)?:\/\//;
/** An event's values as the numbered parameters $1 to $12. */
const INSERT_VALUES = CEILING_EVENT_COLUMNS.split(',')
  .map((_, i) => `$${i + 1}`)
  .join(', ');

/** PostgreSQL: a new database per run on the server of BENCH_POSTGRES_ADMIN_URL (or a postgres:// DATABASE_URL), on this machine. */
export const POSTGRES: BenchDialect = {
  kind: 'postgres',
  flag: '--pg',
  urls: URLS,
  freshDatabase: (_folder, databaseUrl) =>
    freshServerDatabase(process.env.BENCH_POSTGRES_ADMIN_URL ?? (URLS.test(databaseUrl) ? databaseUrl : DEFAULT_ADMIN_URL), SERVER),
  dataSourceOptions: (lib, database) => {
    if (database.kind !== 'postgres') throw new Error(`not a PostgreSQL configuration: ${database.kind}`);
    return lib.infrastructure.postgresDataSourceOptions(database);
  },
  tableWriter: async (url) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    return {
      begin: async () => void (await client.query('BEGIN')),
      insert: async (table, columns, rows) => {
        for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) {
          const chunk = rows.slice(from, from + ROWS_PER_INSERT);
          const values = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
          await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`, chunk.flat());
        }
      },
      commit: async () => void (await client.query('COMMIT')),
      close: () => client.end(),
    };
  },
  // the whole database: the other tables' statistics too, as autovacuum would have them
  analyze: async (dataSource, _tables, vacuum) => void (await dataSource.query(vacuum ? 'VACUUM ANALYZE' : 'ANALYZE')),
  eventValues: { success: (ok) => ok, instant: (at) => at },
  ceilingStorage: (url, poolSize) => {
    const pool = new Pool({ connectionString: url, max: poolSize, min: poolSize, application_name: 'svc-bench-ceiling' });
    const context = {
      name: 'ceiling_context',
      text:
        `SELECT ${CEILING_KEY_COLUMNS}, u.email, u.name, u.organization, c.used FROM api_keys k JOIN users u ON u.id = k.user_id ` +
        'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = $1 WHERE k.digest = $2',
    };
    const key = { name: 'ceiling_key', text: `SELECT ${CEILING_KEY_COLUMNS} FROM api_keys k WHERE k.digest = $1` };
    const consuming = (guarded: boolean) =>
      `WITH consumed AS (
         INSERT INTO usage_counters (license_id, period, used) VALUES ($2, $11, $13)
         ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used
         ${guarded ? 'WHERE usage_counters.used + excluded.used <= $14' : ''}
         RETURNING used),
       stored AS (INSERT INTO analytics_events (${CEILING_EVENT_COLUMNS}) SELECT ${INSERT_VALUES} FROM consumed RETURNING 1)
       SELECT used, (SELECT COUNT(*) FROM stored) AS stored FROM consumed`;
    const consume = { name: 'ceiling_consume', text: consuming(true) };
    const consumeUnlimited = { name: 'ceiling_consume_unlimited', text: consuming(false) };
    const free = {
      name: 'ceiling_free_event',
      text: `WITH stored AS (INSERT INTO analytics_events (${CEILING_EVENT_COLUMNS}) VALUES (${INSERT_VALUES}) RETURNING 1)
             SELECT COALESCE((SELECT used FROM usage_counters WHERE license_id = $2 AND period = $11), 0) AS used,
                    (SELECT COUNT(*) FROM stored) AS stored`,
    };
    const models = { name: 'ceiling_models', text: 'SELECT * FROM models ORDER BY paradigm, name' };
    return {
      context: async (digest, period) => (await pool.query<CeilingContextRow>({ ...context, values: [period, digest] })).rows[0],
      key: async (digest) => (await pool.query<CeilingKeyRow>({ ...key, values: [digest] })).rows[0],
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
      models: async () => (await pool.query<CeilingModelRow>(models)).rows,
      ping: async () => void (await pool.query('SELECT 1')),
    };
  },
  // one named pg query for the key, and the one CTE statement of the consumption step
  bareCeilingStorage: (url, poolSize) => {
    const pool = new Pool({ connectionString: url, max: poolSize, min: poolSize, application_name: 'svc-bench-bare-ceiling' });
    const consuming = (guard: string) =>
      `WITH consumed AS (
         INSERT INTO usage_counters (license_id, period, used) VALUES ($13, $11, $14)
         ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used ${guard}
         RETURNING used),
       stored AS (INSERT INTO analytics_events (${CEILING_EVENT_COLUMNS}) SELECT ${INSERT_VALUES} FROM consumed RETURNING 1)
       SELECT used, (SELECT COUNT(*) FROM stored) AS stored FROM consumed`;
    const within = consuming('WHERE usage_counters.used + excluded.used <= $15');
    const unlimited = consuming('');
    return {
      key: async (digest) =>
        (await pool.query<BareKeyRow>({ name: 'bare_key', text: 'SELECT * FROM api_keys WHERE digest = $1', values: [digest] })).rows[0],
      consume: async (values, license, limit) => {
        const rows = (
          await pool.query<{ used: string }>(
            limit === null
              ? { name: 'bare_consume_unlimited', text: unlimited, values: [...values, license, 1] }
              : { name: 'bare_consume', text: within, values: [...values, license, 1, limit] },
          )
        ).rows;
        return rows.length === 0 ? null : Number(rows[0].used);
      },
    };
  },
};

const SERVER: ServerDatabaseKind = {
  kind: 'postgres',
  server: 'PostgreSQL',
  hasBareCeiling: true,
  create: (name) => `CREATE DATABASE ${name}`,
  drop: (name) => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
  // the backends serving the bench database, and the server's background writers (no client address)
  serverProcess: (name) => (line) =>
    line.startsWith('postgres:') && (line.includes(` ${name} `) || !/\d+\.\d+\.\d+\.\d+\(\d+\)/.test(line)),
  run: async (adminUrl, sql) => {
    const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  },
};
