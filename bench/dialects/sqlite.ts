import Database, { type Statement } from 'better-sqlite3';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import {
  type BareCeilingStorage,
  type BareKeyRow,
  type BenchDialect,
  CEILING_EVENT_COLUMNS,
  CEILING_KEY_COLUMNS,
  type CeilingContextRow,
  type CeilingKeyRow,
  type CeilingModelRow,
  type CeilingStorage,
  type TableWriter,
} from './dialect';

/** SQLite, the default: a new file in the run's folder, read by the service, both ceilings and the seeder through better-sqlite3. */
export const SQLITE: BenchDialect = {
  kind: 'sqlite',
  flag: null,
  urls: /^sqlite:/,
  freshDatabase: async (folder) => {
    const path = join(folder, 'bench.db');
    return { kind: 'sqlite', url: `sqlite:${path}`, label: `SQLite file ${path}`, hasBareCeiling: true, drop: async () => undefined };
  },
  dataSourceOptions: (lib, database) => {
    if (database.kind !== 'sqlite') throw new Error(`not a SQLite configuration: ${database.kind}`);
    return lib.infrastructure.sqliteDataSourceOptions(database);
  },
  tableWriter: async (_url, dataSource) => sqliteWriter(dataSource),
  // none: the service never runs ANALYZE on SQLite, so its queries are planned from the indexes alone, as here
  analyze: async () => undefined,
  eventValues: { success: (ok) => (ok ? 1 : 0), instant: (at) => at.toISOString() },
  ceilingStorage: (url) => ceilingStorage(pathOf(url)),
  bareCeilingStorage: (url) => bareCeilingStorage(pathOf(url)),
};

const pathOf = (url: string) => url.slice('sqlite:'.length);

/** better-sqlite3 on the same file: one prepared INSERT per table, run row by row inside a transaction. */
function sqliteWriter(dataSource: DataSource): TableWriter {
  const db = (dataSource.driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
  // This connection only (the service opens its own): room for the digest index's random inserts.
  db.pragma('cache_size = -262144');
  db.pragma('synchronous = OFF');
  const statements = new Map<string, Statement<unknown[]>>();
  return {
    begin: async () => void db.exec('BEGIN'),
    insert: async (table, columns, rows) => {
      let statement = statements.get(table);
      if (!statement) {
        statement = db.prepare<unknown[]>(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        statements.set(table, statement);
      }
      for (const row of rows) statement.run(...row);
    },
    commit: async () => void db.exec('COMMIT'),
    close: async () => undefined,
  };
}

/** An event's values as SQLite stores them: `success` as 0/1, `received_at` as ISO text. */
const stored = (values: unknown[]) =>
  values.map((v, i) => (i === 7 && typeof v === 'boolean' ? (v ? 1 : 0) : i === 11 ? (v as Date).toISOString() : v));

const UPSERT =
  'INSERT INTO usage_counters (license_id, period, used) VALUES (?, ?, ?) ' +
  'ON CONFLICT (license_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';
const INSERT_EVENT = `INSERT INTO analytics_events (${CEILING_EVENT_COLUMNS}) VALUES (${CEILING_EVENT_COLUMNS.split(',')
  .map(() => '?')
  .join(', ')})`;

function ceilingStorage(path: string): CeilingStorage {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const context = db.prepare(
    `SELECT ${CEILING_KEY_COLUMNS}, u.email, u.name, u.organization, c.used FROM api_keys k JOIN users u ON u.id = k.user_id ` +
      'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = ? WHERE k.digest = ?',
  );
  const key = db.prepare(`SELECT ${CEILING_KEY_COLUMNS} FROM api_keys k WHERE k.digest = ?`);
  const consume = db.prepare(`${UPSERT} WHERE usage_counters.used + excluded.used <= ? RETURNING used`);
  const consumeUnlimited = db.prepare(`${UPSERT} RETURNING used`);
  const used = db.prepare('SELECT used FROM usage_counters WHERE license_id = ? AND period = ?');
  const insert = db.prepare(INSERT_EVENT);
  const models = db.prepare('SELECT * FROM models ORDER BY paradigm, name');
  const ping = db.prepare('SELECT 1');
  const append = db.transaction((values: unknown[], cost: number, limit: number | null): number | null => {
    let total: number;
    if (cost > 0) {
      const row = (limit === null ? consumeUnlimited.get(values[1], values[10], cost) : consume.get(values[1], values[10], cost, limit)) as
        { used: number } | undefined;
      if (!row) return null;
      total = Number(row.used);
    } else {
      const row = used.get(values[1], values[10]) as { used: number } | undefined;
      total = row ? Number(row.used) : 0;
    }
    insert.run(...values);
    return total;
  });
  return {
    context: async (digest, period) => context.get(period, digest) as CeilingContextRow | undefined,
    key: async (digest) => key.get(digest) as CeilingKeyRow | undefined,
    appendConsuming: async (values, cost, limit) => append(stored(values), cost, limit),
    models: async () => models.all() as CeilingModelRow[],
    ping: async () => void ping.get(),
  };
}

/** The counter UPSERT … RETURNING and the event INSERT in one `BEGIN IMMEDIATE` transaction. */
function bareCeilingStorage(path: string): BareCeilingStorage {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const key = db.prepare('SELECT * FROM api_keys WHERE digest = ?');
  const within = db.prepare(`${UPSERT} WHERE usage_counters.used + excluded.used <= ? RETURNING used`);
  const unlimited = db.prepare(`${UPSERT} RETURNING used`);
  const insert = db.prepare(INSERT_EVENT);
  const step = db.transaction((values: unknown[], license: string, limit: number | null): number | null => {
    const row = (limit === null ? unlimited.get(license, values[10], 1) : within.get(license, values[10], 1, limit)) as
      { used: number } | undefined;
    if (!row) return null;
    insert.run(values);
    return Number(row.used);
  });
  return {
    key: async (digest) => key.get(digest) as BareKeyRow | undefined,
    consume: async (values, license, limit) => step.immediate(stored(values), license, limit),
  };
}
