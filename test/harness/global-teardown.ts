import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { TEST_MYSQL_ADMIN_URL, TEST_POSTGRES_ADMIN_URL, templateName } from './test-servers';

/**
 * Drops this run's template databases (test-database.ts), on the servers where a test made one.
 * Jest runs it once per project after every test file has ended; dropping what is already gone is
 * no error, and a server that is not there had no template.
 */
export default async function globalTeardown(): Promise<void> {
  const name = templateName();
  if (!name) return;
  await Promise.all([
    (async () => {
      const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.query(`DROP DATABASE IF EXISTS ${name}_building WITH (FORCE)`);
      } finally {
        await client.end();
      }
    })().catch((error: unknown) => console.warn(`global teardown: ${String(error)}`)),
    (async () => {
      const connection = await createConnection({ uri: TEST_MYSQL_ADMIN_URL, connectTimeout: 2000 });
      try {
        await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await connection.end();
      }
    })().catch((error: unknown) => console.warn(`global teardown: ${String(error)}`)),
  ]);
}
