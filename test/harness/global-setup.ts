/**
 * Refuses to run the e2e suite against a database that is not clearly a test
 * one (DDH's guard): SQLite files are created per test file in a temporary
 * folder; a PostgreSQL URL given by TEST_POSTGRES_URL must name a test database.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.TEST_POSTGRES_URL;
  if (url && !/test/i.test(new URL(url).pathname)) {
    throw new Error('TEST_POSTGRES_URL must name a database whose name contains "test"');
  }
}
