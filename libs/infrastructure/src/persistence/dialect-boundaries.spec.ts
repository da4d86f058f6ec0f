import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Each database stays in its own module, held by a test: no source outside
 * InfrastructureModule asks which database runs, and no source outside a
 * database's own folder imports its driver or casts to TypeORM's driver for it.
 * The benchmark (bench/) is not the service: it may name each database, but
 * only in its file of that database (BENCH_DIALECT_FILES), which "Adding a database"
 * in docs/EXTENDING.md names with every other file a new database brings.
 */
const ROOT = join(__dirname, '../../../..');
const typeScriptUnder = (top: string) =>
  filesUnder(join(ROOT, top)).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.endsWith('.d.ts'));
const SOURCES = ['apps', 'libs'].flatMap(typeScriptUnder);
const BENCH_SOURCES = typeScriptUnder('bench');
const SWITCH_HOME = 'libs/infrastructure/src/infrastructure.module.ts';

/**
 * The benchmark's one file per database (its BenchDialect: a fresh database, the bulk writer, the
 * ceilings' storage), and the list of them a new database joins.
 */
const BENCH_DIALECT_FILES = ['bench/dialects/mysql.ts', 'bench/dialects/postgres.ts', 'bench/dialects/sqlite.ts'];
const BENCH_DIALECT_STEPS = ['bench/dialects/<database>.ts', 'bench/dialects/index.ts'];

/** A path into one database's own folder (the benchmark loads those modules from the build by path). */
const DIALECT_FOLDER = /persistence\/(sqlite|postgres|mysql)\//;

/** What names a database kind in a branch: `kind === 'postgres'`, `case 'mysql':`, TypeORM's `options.type`. */
const KIND_BRANCH =
  /(kind\s*[!=]==?\s*'(sqlite|postgres|mysql)'|case\s+'(sqlite|postgres|mysql)'\s*:|(dataSource|connection)\.options\.type\b|\.type\s*[!=]==?\s*'(better-sqlite3|postgres|mysql)')/;

/** Each driver, and the folder that alone may touch it. */
const DRIVERS: ReadonlyArray<{ folder: string; touches: RegExp }> = [
  {
    folder: 'libs/infrastructure/src/persistence/sqlite/',
    touches: /from 'better-sqlite3'|typeorm\/driver\/(better-)?sqlite|BetterSqlite3Driver/,
  },
  { folder: 'libs/infrastructure/src/persistence/postgres/', touches: /from 'pg'|typeorm\/driver\/postgres|PostgresDriver/ },
  { folder: 'libs/infrastructure/src/persistence/mysql/', touches: /from 'mysql2(\/promise)?'|typeorm\/driver\/mysql|MysqlDriver/ },
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const relativeOf = (file: string) => relative(ROOT, file).split(sep).join('/');

describe('database dialects stay in their modules', () => {
  it('finds the sources (the scan is not empty)', () => {
    expect(SOURCES.length).toBeGreaterThan(100);
    expect(SOURCES.map(relativeOf)).toContain(SWITCH_HOME);
  });

  it('branches on the database kind only in InfrastructureModule', () => {
    const branching = SOURCES.filter((file) => KIND_BRANCH.test(readFileSync(file, 'utf8'))).map(relativeOf);
    expect(branching).toEqual([SWITCH_HOME]);
  });

  it.each(DRIVERS)('touches the driver of $folder only there', ({ folder, touches }) => {
    const outside = SOURCES.map(relativeOf).filter(
      (file) => !file.startsWith(folder) && touches.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(outside).toEqual([]);
  });

  it('names a database in the benchmark only in its dialect files', () => {
    const naming = BENCH_SOURCES.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return KIND_BRANCH.test(text) || DIALECT_FOLDER.test(text) || DRIVERS.some(({ touches }) => touches.test(text));
    }).map(relativeOf);
    expect(BENCH_SOURCES.length).toBeGreaterThan(5);
    expect(naming.sort()).toEqual(BENCH_DIALECT_FILES);
  });

  it('the patterns catch what they look for', () => {
    expect(KIND_BRANCH.test("if (this.dataSource.options.type === 'postgres') return")).toBe(true);
    expect(KIND_BRANCH.test("database.kind === 'mysql'")).toBe(true);
    expect(KIND_BRANCH.test("    case 'sqlite':")).toBe(true);
    expect(DRIVERS[1].touches.test("(this.dataSource.driver as unknown as { master: Pool }) // import type { Pool } from 'pg';")).toBe(
      true,
    );
  });

  it("EXTENDING.md's worked example is the MySQL module as it is", () => {
    const guide = readFileSync(join(ROOT, 'docs/EXTENDING.md'), 'utf8');
    const section = addingADatabase(guide);
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const module = readFileSync(join(__dirname, 'mysql/mysql-persistence.module.ts'), 'utf8');
    expect(example).toContain('MySqlPersistenceModule');
    expect(module).toContain(example.trim());
  });

  it('"Adding a database" takes at most five steps, numbered from one', () => {
    const section = addingADatabase(readFileSync(join(ROOT, 'docs/EXTENDING.md'), 'utf8'));
    const steps = [...section.matchAll(/^(\d+)\. \*\*/gm)].map((m) => Number(m[1]));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(5);
    expect(steps).toEqual(steps.map((_, i) => i + 1));
  });

  it('"Adding a database" names every file the MySQL module brings, and the benchmark\'s dialect files', () => {
    const guide = readFileSync(join(ROOT, 'docs/EXTENDING.md'), 'utf8');
    const section = addingADatabase(guide);
    const own = readdirSync(join(__dirname, 'mysql')).map((name) => name.replace('mysql', '<database>'));
    const harness = ['test/harness/use-<database>.ts', 'test/harness/test-database.ts', 'test/contracts/module-persistence.ts'];
    const missing = [...own, ...harness, ...BENCH_DIALECT_STEPS].filter((file) => !section.includes(file));
    expect(own).toContain('<database>-faults.ts');
    expect(missing).toEqual([]);
  });
});

/** The guide's "Adding a database" section, whatever its number, up to the next section. */
function addingADatabase(guide: string): string {
  const start = /^## \d+\. Adding a database$/m.exec(guide);
  if (!start) throw new Error('docs/EXTENDING.md has no "Adding a database" section');
  const rest = guide.slice(start.index + start[0].length);
  const next = /^## /m.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}
