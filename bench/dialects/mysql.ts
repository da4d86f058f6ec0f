import { type ExecuteValues, type ResultSetHeader, type RowDataPacket, createConnection, createPool } from 'mysql2/promise';
import {
  type BenchDialect,
  CEILING_EVENT_COLUMNS,
  CEILING_KEY_COLUMNS,
  type CeilingContextRow,
  type CeilingKeyRow,
  type CeilingModelRow,
  type CeilingStorage,
  ROWS_PER_INSERT,
  type ServerDatabaseKind,
  freshServerDatabase,
} from './dialect';

const DEFAULT_ADMIN_URL = 'mysql://root@127.0.0.1:3306/test';
const URLS = /^mysql:\/\//;

/**
 * MySQL / MariaDB: a new database per run on the server of BENCH_MYSQL_ADMIN_URL (or a mysql://
 * DATABASE_URL), on this machine. The full ceiling only (the bare one reads SQLite and PostgreSQL).
 */
export const MYSQL: BenchDialect = {
  kind: 'mysql',
  flag: '--mysql',
  urls: URLS,
  freshDatabase: (_folder, databaseUrl) =>
    freshServerDatabase(process.env.BENCH_MYSQL_ADMIN_URL ?? (URLS.test(databaseUrl) ? databaseUrl : DEFAULT_ADMIN_URL), SERVER),
  dataSourceOptions: (lib, database) => {
    if (database.kind !== 'mysql') throw new Error(`not a MySQL configuration: ${database.kind}`);
    return lib.infrastructure.mysqlDataSourceOptions(database);
  },
  /**
   * One mysql2 connection: multi-row INSERTs inside a transaction. The values are escaped into the
   * statement's text by mysql2 (`query`, not a prepared `execute`: one statement per chunk shape
   * would be prepared and cached for nothing), with the data source's UTC time zone for Dates.
   */
  tableWriter: async (url) => {
    const connection = await createConnection({
      uri: url,
      timezone: 'Z',
      charset: 'utf8mb4_bin',
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
    return {
      begin: async () => void (await connection.beginTransaction()),
      insert: async (table, columns, rows) => {
        for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) {
          const chunk = rows.slice(from, from + ROWS_PER_INSERT);
          const row = `(${columns.map(() => '?').join(', ')})`;
          await connection.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`, chunk.flat());
        }
      },
      commit: async () => void (await connection.commit()),
      close: () => connection.end(),
    };
  },
  analyze: async (dataSource, tables) => void (await dataSource.query(`ANALYZE TABLE ${tables.join(', ')}`)),
  eventValues: { success: (ok) => (ok ? 1 : 0), instant: (at) => at.toISOString().slice(0, 23).replace('T', ' ') },
  ceilingStorage,
};

/**
 * mysql2's promise pool with server-side prepared statements (`execute`, cached per connection),
 * the session options of the service's data source (UTC, BIGINT as strings, utf8mb4_bin).
 * Parameters added to a BIGINT are CAST to SIGNED: mysql2 binds a JS number as DOUBLE, and
 * `used + <double>` would be computed in floating point (inexact past 2^53). The consumption step
 * is one transaction on one pooled connection: a guarded `UPDATE … SET used = LAST_INSERT_ID(used + cost)`
 * whose result's insertId is the new total, and only when it matched no row an `INSERT IGNORE` of
 * the counter (on its own, between two transactions) and the UPDATE once more (no row again:
 * refused, rolled back); then the INSERT of the event and COMMIT.
 */
function ceilingStorage(url: string, poolSize: number): CeilingStorage {
  const pool = createPool({
    uri: url,
    connectionLimit: poolSize,
    maxIdle: poolSize,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4_bin',
    enableKeepAlive: true,
  });
  const context =
    `SELECT ${CEILING_KEY_COLUMNS}, u.email, u.name, u.organization, c.used FROM api_keys k JOIN users u ON u.id = k.user_id ` +
    'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = ? WHERE k.digest = ?';
  const key = `SELECT ${CEILING_KEY_COLUMNS} FROM api_keys k WHERE k.digest = ?`;
  const consume =
    'UPDATE usage_counters SET used = LAST_INSERT_ID(used + CAST(? AS SIGNED)) WHERE license_id = ? AND period = ? AND used + CAST(? AS SIGNED) <= CAST(? AS SIGNED)';
  const consumeUnlimited = 'UPDATE usage_counters SET used = LAST_INSERT_ID(used + CAST(? AS SIGNED)) WHERE license_id = ? AND period = ?';
  const ensureCounter = 'INSERT IGNORE INTO usage_counters (license_id, period, used) VALUES (?, ?, 0)';
  const used = 'SELECT used FROM usage_counters WHERE license_id = ? AND period = ?';
  const insert = `INSERT INTO analytics_events (${CEILING_EVENT_COLUMNS}) VALUES (${CEILING_EVENT_COLUMNS.split(',')
    .map(() => '?')
    .join(', ')})`;
  return {
    context: async (digest, period) =>
      (await pool.execute<RowDataPacket[]>(context, [period, digest]))[0][0] as CeilingContextRow | undefined,
    key: async (digest) => (await pool.execute<RowDataPacket[]>(key, [digest]))[0][0] as CeilingKeyRow | undefined,
    appendConsuming: async (values, cost, limit) => {
      const keyId = values[1] as string;
      const period = values[10] as string;
      const connection = await pool.getConnection();
      try {
        await connection.beginTransaction();
        let total: number;
        if (cost > 0) {
          const update = () =>
            limit === null
              ? connection.execute<ResultSetHeader>(consumeUnlimited, [cost, keyId, period])
              : connection.execute<ResultSetHeader>(consume, [cost, keyId, period, cost, limit]);
          let [result] = await update();
          if (result.affectedRows === 0) {
            // No counter yet for the period, or the quota refuses: make sure the row exists and try
            // once more. The INSERT IGNORE runs on its own (autocommit), between two transactions:
            // inside the transaction its shared lock on the duplicate row, held to COMMIT, deadlocks
            // concurrent first uses of a key (ER_LOCK_DEADLOCK, under READ COMMITTED as well).
            // A counter row of 0 reads as no row everywhere.
            await connection.rollback();
            await connection.execute(ensureCounter, [keyId, period]);
            await connection.beginTransaction();
            [result] = await update();
            if (result.affectedRows === 0) {
              await connection.rollback();
              return null;
            }
          }
          total = Number(result.insertId);
        } else {
          const [rows] = await connection.execute<RowDataPacket[]>(used, [keyId, period]);
          total = rows.length === 0 ? 0 : Number(rows[0].used);
        }
        await connection.execute(insert, values as ExecuteValues);
        await connection.commit();
        return total;
      } catch (error) {
        await connection.rollback().catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    models: async () => (await pool.execute<RowDataPacket[]>('SELECT * FROM models ORDER BY paradigm, name'))[0] as CeilingModelRow[],
    ping: async () => void (await pool.execute('SELECT 1')),
  };
}

/** A database of utf8mb4_bin, as the migrations' tables. */
const SERVER: ServerDatabaseKind = {
  kind: 'mysql',
  server: 'MySQL / MariaDB',
  hasBareCeiling: false,
  create: (name) => `CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
  drop: (name) => `DROP DATABASE IF EXISTS ${name}`,
  // one process, a thread per connection: all of it works for the benchmark
  serverProcess: () => (line) => /(^|\/)(mariadbd|mysqld)$/.test(line.split(' ')[0]),
  run: async (adminUrl, sql) => {
    const connection = await createConnection({ uri: adminUrl, connectTimeout: 5000 });
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  },
};
