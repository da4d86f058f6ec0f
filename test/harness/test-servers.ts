/**
 * The database servers the e2e suites use, and this run's template name: no import of the service's
 * code, so that Jest's global setup and teardown (which run outside the projects' module mapping) can read them.
 */

/** The server the Postgres run uses; each test file creates its own database on it and drops it. */
export const TEST_POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server the MySQL / MariaDB run uses, the same way (its own database is only connected to). */
export const TEST_MYSQL_ADMIN_URL = process.env.TEST_MYSQL_ADMIN_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** This run's template database name (the same in every worker), or null outside a run that set TEST_RUN_ID. */
export function templateName(): string | null {
  const run = process.env.TEST_RUN_ID;
  return run && /^[a-z0-9]+$/.test(run) ? `svc_template_${run}` : null;
}
