import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { productionOptions } from '../harness/production-options';
import { serverAvailableSync } from '../harness/services';
import { type TestDatabase, type TestDatabaseKind, createTestDatabase } from '../harness/test-database';

/**
 * Schema drift (CONTRACT 18): each database has migrations of its own; this migrates a fresh
 * database of each kind with the service's own options, reads back what the server built, and
 * holds the three to one description: tables, columns (type, nullability, default), primary keys,
 * unique and secondary indexes by name with their ordered columns, foreign keys. The `migrations`
 * bookkeeping table is left out. Any difference fails, except the type spellings declared in
 * TYPE_MAPPING. (CHECK constraints are not compared: each engine prints their expressions its own way.)
 */

type Engine = TestDatabaseKind;
const ENGINES: readonly Engine[] = ['sqlite', 'postgres', 'mysql'];

interface ColumnDescription {
  readonly type: string;
  readonly nullable: boolean;
  readonly default: string | null;
}
interface IndexDescription {
  readonly unique: boolean;
  readonly columns: readonly string[];
}
interface TableDescription {
  readonly columns: Record<string, ColumnDescription>;
  readonly primaryKey: readonly string[];
  /** By index name; the primary key's own index is not listed. */
  readonly indexes: Record<string, IndexDescription>;
  /** `(columns) -> table(columns)`, in any order. */
  readonly foreignKeys: readonly string[];
}
export type SchemaDescription = Record<string, TableDescription>;

/**
 * The declared type mapping: the one place where the databases may differ. Each row names the
 * normalised type and how each engine spells it (as SQLite's table_info, PostgreSQL's
 * information_schema `data_type(character_maximum_length)` and MySQL's `COLUMN_TYPE` report it;
 * MariaDB and MySQL 5.7 add display widths, MySQL 8 does not). `$1` carries a length through.
 */
const TYPE_MAPPING: ReadonlyArray<{ readonly type: string } & Record<Engine, RegExp>> = [
  { type: 'varchar($1)', sqlite: /^varchar\((\d+)\)$/, postgres: /^character varying\((\d+)\)$/, mysql: /^varchar\((\d+)\)$/ },
  { type: 'text', sqlite: /^text$/, postgres: /^text$/, mysql: /^text$/ },
  { type: 'timestamp', sqlite: /^datetime$/, postgres: /^timestamp with time zone$/, mysql: /^datetime\(3\)$/ },
  { type: 'bigint', sqlite: /^bigint$/, postgres: /^bigint$/, mysql: /^bigint(\(20\))?$/ },
  { type: 'integer', sqlite: /^integer$/, postgres: /^integer$/, mysql: /^int(\(11\))?$/ },
  { type: 'double', sqlite: /^double precision$/, postgres: /^double precision$/, mysql: /^double$/ },
  { type: 'boolean', sqlite: /^boolean$/, postgres: /^boolean$/, mysql: /^tinyint\(1\)$/ },
];

/** The normalised type, or `undeclared <engine> type "<raw>"`, which no other engine can match. */
export function normaliseType(engine: Engine, raw: string): string {
  const spelled = raw.trim().toLowerCase();
  for (const row of TYPE_MAPPING) {
    const m = row[engine].exec(spelled);
    if (m) return row.type.replace('$1', m[1] ?? '');
  }
  return `undeclared ${engine} type "${raw}"`;
}

/** Defaults as literals: no casts, no quotes; an explicit NULL (MariaDB's spelling of none) is none. */
function normaliseDefault(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  let value = raw.trim().replace(/::[a-z ]+(\(\d+\))?$/i, '');
  if (/^'.*'$/s.test(value)) value = value.slice(1, -1);
  return value.toUpperCase() === 'NULL' ? null : value;
}

function foreignKey(columns: readonly string[], table: string, references: readonly string[]): string {
  return `(${columns.join(', ')}) -> ${table}(${references.join(', ')})`;
}

function describeColumn(c: ColumnDescription | undefined): string {
  return c === undefined ? 'absent' : `${c.type} ${c.nullable ? 'null' : 'not null'}${c.default === null ? '' : ` default ${c.default}`}`;
}
function describeIndex(i: IndexDescription | undefined): string {
  return i === undefined ? 'absent' : `${i.unique ? 'unique ' : ''}(${i.columns.join(', ')})`;
}

/**
 * Every difference between the descriptions, one line each, naming the table, the column or
 * index, and what each engine has. Empty when they agree.
 */
export function schemaDifferences(schemas: Partial<Record<Engine, SchemaDescription>>): string[] {
  const present = ENGINES.filter((e) => schemas[e] !== undefined);
  const differences: string[] = [];
  const compare = (what: string, valueOf: (schema: SchemaDescription) => string) => {
    const values = present.map((e) => valueOf(schemas[e]!));
    if (new Set(values).size > 1) differences.push(`${what}: ${present.map((e, i) => `${e} ${values[i]}`).join(', ')}`);
  };
  const union = (names: (schema: SchemaDescription) => Iterable<string>) =>
    [...new Set(present.flatMap((e) => [...names(schemas[e]!)]))].sort();
  for (const table of union((s) => Object.keys(s))) {
    compare(`table ${table}`, (s) => (s[table] ? 'present' : 'absent'));
    const tables = present.map((e) => schemas[e]![table]).filter((t): t is TableDescription => t !== undefined);
    if (tables.length < present.length) continue; // an absent table is one difference, not one per column
    const of = (s: SchemaDescription) => s[table];
    for (const column of union((s) => Object.keys(of(s).columns))) {
      compare(`column ${table}.${column}`, (s) => describeColumn(of(s).columns[column]));
    }
    compare(`primary key of ${table}`, (s) => `(${of(s).primaryKey.join(', ')})`);
    for (const index of union((s) => Object.keys(of(s).indexes))) {
      compare(`index ${table}.${index}`, (s) => describeIndex(of(s).indexes[index]));
    }
    for (const fk of union((s) => of(s).foreignKeys)) {
      compare(`foreign key ${table} ${fk}`, (s) => (of(s).foreignKeys.includes(fk) ? 'present' : 'absent'));
    }
  }
  return differences;
}

// ---- introspection, per engine ----

function emptyTable(): {
  columns: Record<string, ColumnDescription>;
  primaryKey: string[];
  indexes: Record<string, IndexDescription>;
  foreignKeys: string[];
} {
  return { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] };
}

async function describeSqlite(ds: DataSource): Promise<SchemaDescription> {
  const schema: SchemaDescription = {};
  const tables: Array<{ name: string }> = await ds.query(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations' ORDER BY name`,
  );
  for (const { name } of tables) {
    const table = emptyTable();
    const columns: Array<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }> = await ds.query(
      `SELECT * FROM pragma_table_info('${name}')`,
    );
    for (const c of columns)
      table.columns[c.name] = { type: normaliseType('sqlite', c.type), nullable: c.notnull === 0, default: normaliseDefault(c.dflt_value) };
    table.primaryKey.push(
      ...columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
    );
    const indexes: Array<{ name: string; unique: number; origin: string }> = await ds.query(`SELECT * FROM pragma_index_list('${name}')`);
    for (const index of indexes.filter((i) => i.origin !== 'pk')) {
      const parts: Array<{ seqno: number; name: string }> = await ds.query(`SELECT * FROM pragma_index_info('${index.name}')`);
      table.indexes[index.name] = { unique: index.unique === 1, columns: parts.sort((a, b) => a.seqno - b.seqno).map((p) => p.name) };
    }
    const fks: Array<{ id: number; seq: number; table: string; from: string; to: string }> = await ds.query(
      `SELECT * FROM pragma_foreign_key_list('${name}')`,
    );
    for (const id of [...new Set(fks.map((f) => f.id))]) {
      const parts = fks.filter((f) => f.id === id).sort((a, b) => a.seq - b.seq);
      table.foreignKeys.push(
        foreignKey(
          parts.map((p) => p.from),
          parts[0].table,
          parts.map((p) => p.to),
        ),
      );
    }
    schema[name] = table;
  }
  return schema;
}

async function describePostgres(ds: DataSource): Promise<SchemaDescription> {
  const schema: Record<string, ReturnType<typeof emptyTable>> = {};
  const columns: Array<{ table_name: string; column_name: string; type: string; is_nullable: string; column_default: string | null }> =
    await ds.query(
      `SELECT c.table_name, c.column_name, c.is_nullable, c.column_default,
            c.data_type || COALESCE('(' || c.character_maximum_length || ')', '') AS type
       FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'migrations'
      ORDER BY c.table_name, c.ordinal_position`,
    );
  for (const c of columns) {
    (schema[c.table_name] ??= emptyTable()).columns[c.column_name] = {
      type: normaliseType('postgres', c.type),
      nullable: c.is_nullable === 'YES',
      default: normaliseDefault(c.column_default),
    };
  }
  const indexes: Array<{ table_name: string; index_name: string; is_unique: boolean; is_primary: boolean; columns: string[] }> =
    await ds.query(
      `SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS is_unique, x.indisprimary AS is_primary,
            array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'migrations'
      GROUP BY t.relname, i.relname, x.indisunique, x.indisprimary`,
    );
  for (const index of indexes) {
    const table = (schema[index.table_name] ??= emptyTable());
    if (index.is_primary) table.primaryKey.push(...index.columns);
    else table.indexes[index.index_name] = { unique: index.is_unique, columns: index.columns };
  }
  const fks: Array<{ table_name: string; referenced: string; columns: string[]; referenced_columns: string[] }> = await ds.query(
    `SELECT c.conrelid::regclass::text AS table_name, c.confrelid::regclass::text AS referenced,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS referenced_columns
       FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  for (const fk of fks)
    (schema[fk.table_name] ??= emptyTable()).foreignKeys.push(foreignKey(fk.columns, fk.referenced, fk.referenced_columns));
  return schema;
}

async function describeMySql(ds: DataSource): Promise<SchemaDescription> {
  const schema: Record<string, ReturnType<typeof emptyTable>> = {};
  const columns: Array<{
    TABLE_NAME: string;
    COLUMN_NAME: string;
    COLUMN_TYPE: string;
    IS_NULLABLE: string;
    COLUMN_DEFAULT: string | null;
  }> = await ds.query(
    `SELECT c.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE, c.IS_NULLABLE, c.COLUMN_DEFAULT
       FROM information_schema.COLUMNS c JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
      WHERE c.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE' AND c.TABLE_NAME <> 'migrations'
      ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
  );
  for (const c of columns) {
    (schema[c.TABLE_NAME] ??= emptyTable()).columns[c.COLUMN_NAME] = {
      type: normaliseType('mysql', c.COLUMN_TYPE),
      nullable: c.IS_NULLABLE === 'YES',
      default: normaliseDefault(c.COLUMN_DEFAULT),
    };
  }
  const parts: Array<{ TABLE_NAME: string; INDEX_NAME: string; NON_UNIQUE: number | string; COLUMN_NAME: string }> = await ds.query(
    `SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'migrations' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  for (const p of parts) {
    const table = (schema[p.TABLE_NAME] ??= emptyTable());
    if (p.INDEX_NAME === 'PRIMARY') table.primaryKey.push(p.COLUMN_NAME);
    else {
      const index = (table.indexes[p.INDEX_NAME] ??= { unique: Number(p.NON_UNIQUE) === 0, columns: [] });
      (index.columns as string[]).push(p.COLUMN_NAME);
    }
  }
  const fks: Array<{
    TABLE_NAME: string;
    CONSTRAINT_NAME: string;
    COLUMN_NAME: string;
    REFERENCED_TABLE_NAME: string;
    REFERENCED_COLUMN_NAME: string;
  }> = await ds.query(
    `SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE
        WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
  );
  for (const name of [...new Set(fks.map((f) => `${f.TABLE_NAME}\u0000${f.CONSTRAINT_NAME}`))]) {
    const of = fks.filter((f) => `${f.TABLE_NAME}\u0000${f.CONSTRAINT_NAME}` === name);
    (schema[of[0].TABLE_NAME] ??= emptyTable()).foreignKeys.push(
      foreignKey(
        of.map((f) => f.COLUMN_NAME),
        of[0].REFERENCED_TABLE_NAME,
        of.map((f) => f.REFERENCED_COLUMN_NAME),
      ),
    );
  }
  return schema;
}

const DESCRIBE: Record<Engine, (ds: DataSource) => Promise<SchemaDescription>> = {
  sqlite: describeSqlite,
  postgres: describePostgres,
  mysql: describeMySql,
};

async function migrateAndDescribe(engine: Engine, folder: string): Promise<SchemaDescription> {
  const database: TestDatabase = await createTestDatabase(folder, engine, { empty: true });
  try {
    expect(database.url.startsWith(engine === 'postgres' ? 'postgres' : engine)).toBe(true);
    const ds = await new DataSource(productionOptions(database.url)).initialize();
    try {
      expect(await ds.showMigrations()).toBe(false); // every migration applied
      return await DESCRIBE[engine](ds);
    } finally {
      await ds.destroy();
    }
  } finally {
    await database.drop();
  }
}

// ---- the tests ----

describe('schema drift: the comparison', () => {
  const base = (): SchemaDescription => ({
    users: {
      columns: {
        id: { type: 'varchar(40)', nullable: false, default: null },
        name: { type: 'varchar(200)', nullable: true, default: null },
      },
      primaryKey: ['id'],
      indexes: { ix_users_name: { unique: false, columns: ['name'] } },
      foreignKeys: [],
    },
    api_keys: {
      columns: {
        id: { type: 'varchar(40)', nullable: false, default: null },
        user_id: { type: 'varchar(40)', nullable: false, default: null },
        used: { type: 'bigint', nullable: false, default: '0' },
      },
      primaryKey: ['id'],
      indexes: { ux_api_keys_user: { unique: true, columns: ['user_id', 'id'] } },
      foreignKeys: ['(user_id) -> users(id)'],
    },
  });

  it('finds no difference between equal descriptions', () => {
    expect(schemaDifferences({ sqlite: base(), postgres: base(), mysql: base() })).toEqual([]);
  });

  it('names a missing index, a nullability difference and an extra column, with what each database has', () => {
    const doctored = base();
    delete doctored.users.indexes.ix_users_name;
    doctored.api_keys.columns.user_id = { type: 'varchar(40)', nullable: true, default: null };
    doctored.api_keys.columns.extra = { type: 'text', nullable: true, default: null };
    expect(schemaDifferences({ sqlite: base(), postgres: base(), mysql: doctored })).toEqual([
      'column api_keys.extra: sqlite absent, postgres absent, mysql text null',
      'column api_keys.user_id: sqlite varchar(40) not null, postgres varchar(40) not null, mysql varchar(40) null',
      'index users.ix_users_name: sqlite (name), postgres (name), mysql absent',
    ]);
  });

  it('names index column order, uniqueness, defaults, primary keys, foreign keys and missing tables', () => {
    const doctored = base();
    doctored.api_keys.indexes.ux_api_keys_user = { unique: false, columns: ['id', 'user_id'] };
    doctored.api_keys.columns.used = { type: 'bigint', nullable: false, default: null };
    (doctored.api_keys as unknown as { primaryKey: string[] }).primaryKey = ['id', 'user_id'];
    (doctored.api_keys as unknown as { foreignKeys: string[] }).foreignKeys = [];
    delete (doctored as Record<string, TableDescription>).users;
    expect(schemaDifferences({ sqlite: base(), postgres: doctored })).toEqual([
      'column api_keys.used: sqlite bigint not null default 0, postgres bigint not null',
      'primary key of api_keys: sqlite (id), postgres (id, user_id)',
      'index api_keys.ux_api_keys_user: sqlite unique (user_id, id), postgres (id, user_id)',
      'foreign key api_keys (user_id) -> users(id): sqlite present, postgres absent',
      'table users: sqlite present, postgres absent',
    ]);
  });

  it('maps only the declared type spellings; anything else stays a difference', () => {
    expect(['datetime', 'timestamp with time zone', 'datetime(3)'].map((t, i) => normaliseType(ENGINES[i], t))).toEqual([
      'timestamp',
      'timestamp',
      'timestamp',
    ]);
    expect(normaliseType('postgres', 'character varying(64)')).toBe('varchar(64)');
    expect(normaliseType('mysql', 'bigint(20)')).toBe('bigint');
    expect(normaliseType('mysql', 'datetime')).toBe('undeclared mysql type "datetime"'); // seconds only: not the declared DATETIME(3)
    expect(normaliseType('postgres', 'timestamp without time zone')).toBe('undeclared postgres type "timestamp without time zone"');
    expect(normaliseType('mysql', 'varchar(40)')).not.toBe(normaliseType('mysql', 'varchar(41)'));
  });
});

const servers: Engine[] = [
  ...(serverAvailableSync(5432, 'PostgreSQL') ? (['postgres'] as const) : []),
  ...(serverAvailableSync(3306, 'MySQL / MariaDB') ? (['mysql'] as const) : []),
];

(servers.length > 0 ? describe : describe.skip)('schema drift: the migrations of every database build the same schema', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-schema-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it(`SQLite, ${servers.join(' and ')}: the same tables, columns, keys and indexes, up to the declared type mapping`, async () => {
    const schemas: Partial<Record<Engine, SchemaDescription>> = {};
    for (const engine of ['sqlite', ...servers] as Engine[]) schemas[engine] = await migrateAndDescribe(engine, folder);
    // the introspection saw the schema at all (an empty description would agree with another empty one)
    expect(Object.keys(schemas.sqlite!).sort()).toEqual([
      'analytics_events',
      'api_keys',
      'audit_log',
      'devices',
      'generated_secrets',
      'idempotency_keys',
      'license_device_limits',
      'license_signing_keys',
      'license_tokens',
      'models',
      'operators',
      'usage_counters',
      'users',
      'webhook_deliveries',
      'webhook_endpoints',
      'webhook_events',
    ]);
    expect(schemas.sqlite!.api_keys.indexes.ux_api_keys_digest).toEqual({ unique: true, columns: ['digest'] });
    // an idempotency key names one event per license on every database (CONTRACT 22)
    expect(schemas.sqlite!.idempotency_keys.primaryKey).toEqual(['license_id', 'idempotency_key']);
    expect(schemaDifferences(schemas)).toEqual([]);
  });
});
