import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as application from '@svc/application';
import * as config from '@svc/config';
import * as domain from '@svc/domain';
import * as infrastructure from '@svc/infrastructure';
import * as presentation from '@svc/presentation';

/**
 * The benchmark measures the service as `npm run build` leaves it
 * (dist/apps/api/main.js), and seeds keys with the libraries' own code: the
 * bench is bundled from the same sources by `nest build bench` (webpack.config.js)
 * into dist/bench/main.js, beside its ceiling fixture (dist/bench/ceiling-server.js).
 */
export const ROOT = join(__dirname, '..', '..');
export const BUILT_API_MAIN = join(ROOT, 'dist/apps/api/main.js');
export const CEILING_SERVER = join(__dirname, 'ceiling-server.js');
/** The bare ceiling (bench/bare-ceiling-server.ts): validate and analytics, SQLite and PostgreSQL. */
export const BARE_CEILING_SERVER = join(__dirname, 'bare-ceiling-server.js');

export function assertBuilt(): void {
  for (const file of [BUILT_API_MAIN, CEILING_SERVER, BARE_CEILING_SERVER]) {
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

/** The libraries the bench seeds and reads with, as the service runs them. */
export const LIBRARIES = {
  application,
  config,
  domain,
  infrastructure,
  presentation,
};
export type Libraries = typeof LIBRARIES;
