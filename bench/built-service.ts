import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Config from '@svc/config';
import type * as Domain from '@svc/domain';
import type * as Infrastructure from '@svc/infrastructure';
import type * as MySqlDataSource from '@svc/infrastructure/persistence/mysql/mysql-data-source';
import type * as PostgresDataSource from '@svc/infrastructure/persistence/postgres/postgres-data-source';
import type * as SqliteDataSource from '@svc/infrastructure/persistence/sqlite/sqlite-data-source';
import type * as ApiKeyMappers from '@svc/infrastructure/persistence/typeorm/mappers/api-key.mapper';
import type * as UserMappers from '@svc/infrastructure/persistence/typeorm/mappers/user.mapper';
import type * as Records from '@svc/infrastructure/persistence/typeorm/records';
import type * as AuditEntryMappers from '@svc/infrastructure/persistence/typeorm/mappers/audit-entry.mapper';
import type * as Presentation from '@svc/presentation';

/**
 * The benchmark measures the service as `npm run build` leaves it, and seeds
 * keys with the same built code. The bench itself is compiled by tsc
 * (tsconfig.bench.json, to dist/bench), which does not rewrite the `@svc/*`
 * aliases; so the libraries are loaded from the built API (where nest build
 * did rewrite them), and only their types come from the sources.
 */
export const ROOT = join(__dirname, '..', '..', '..');
export const BUILT_API_DIR = join(ROOT, 'dist/apps/api');
export const BUILT_API_MAIN = join(BUILT_API_DIR, 'apps/api/src/main.js');
export const CEILING_SERVER = join(__dirname, 'ceiling-server.js');

export function assertBuilt(): void {
  for (const file of [BUILT_API_MAIN, CEILING_SERVER]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build && npm run build:bench" first (npm run bench does)`);
  }
}

/** How production starts the service: node, its flags, the entry point. */
export interface ServiceCommand {
  readonly nodeFlags: readonly string[];
  readonly text: string;
}

/**
 * The service's command line in production, `npm run start:built`
 * (`node [--flags …] <the built entry point>`), read from package.json so
 * the benchmark measures the service as it is started (the image and the
 * Deployment run the same command; test/e2e/deploy.e2e-spec.ts holds them to it).
 */
export function serviceCommand(): ServiceCommand {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const text = (pkg.scripts?.['start:built'] ?? '').trim();
  const [node, ...rest] = text.split(/\s+/);
  const entry = rest.pop();
  if (node !== 'node' || entry === undefined || join(ROOT, entry) !== BUILT_API_MAIN || !rest.every((word) => word.startsWith('--'))) {
    throw new Error(
      `package.json's start:built must read "node [--flags …] ${BUILT_API_MAIN.slice(ROOT.length + 1)}" (the benchmark starts the service the same way)`,
    );
  }
  return { nodeFlags: rest, text };
}

export function built<T>(relative: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(BUILT_API_DIR, relative)) as T;
}

export interface BuiltLibraries {
  readonly config: typeof Config;
  readonly domain: typeof Domain;
  readonly infrastructure: typeof Infrastructure;
  readonly sqliteDataSource: typeof SqliteDataSource;
  readonly postgresDataSource: typeof PostgresDataSource;
  readonly mysqlDataSource: typeof MySqlDataSource;
  readonly records: typeof Records;
  readonly apiKeyMapper: typeof ApiKeyMappers;
  readonly userMapper: typeof UserMappers;
  readonly auditEntryMapper: typeof AuditEntryMappers;
  readonly presentation: typeof Presentation;
}

export function builtLibraries(): BuiltLibraries {
  const typeorm = 'libs/infrastructure/src/persistence/typeorm';
  return {
    config: built('libs/config/src'),
    domain: built('libs/domain/src'),
    infrastructure: built('libs/infrastructure/src'),
    sqliteDataSource: built('libs/infrastructure/src/persistence/sqlite/sqlite-data-source'),
    postgresDataSource: built('libs/infrastructure/src/persistence/postgres/postgres-data-source'),
    mysqlDataSource: built('libs/infrastructure/src/persistence/mysql/mysql-data-source'),
    records: built(`${typeorm}/records`),
    apiKeyMapper: built(`${typeorm}/mappers/api-key.mapper`),
    userMapper: built(`${typeorm}/mappers/user.mapper`),
    auditEntryMapper: built(`${typeorm}/mappers/audit-entry.mapper`),
    presentation: built('libs/presentation/src'),
  };
}
