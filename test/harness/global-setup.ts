import { randomBytes } from 'node:crypto';
import { TEST_MYSQL_ADMIN_URL, TEST_POSTGRES_ADMIN_URL } from './test-servers';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Refuses to run the e2e suite against a server that is not clearly a test one (DDH's guard).
 * SQLite files are created per test file in a temporary folder. On PostgreSQL and MySQL /
 * MariaDB each test file creates a database of its own and drops it, and the fault tests cut
 * its connections: so the servers the harness reads (TEST_POSTGRES_ADMIN_URL,
 * TEST_MYSQL_ADMIN_URL; test/harness/test-database.ts) must be on this machine, and of the
 * driver's kind.
 *
 * It also names this run (TEST_RUN_ID, inherited by every worker): the template databases that
 * test-database.ts migrates once and copies for each test carry the name, and global-teardown.ts
 * drops them when the run ends. Jest calls this once per project; the first call names the run.
 */
export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID ??= randomBytes(5).toString('hex');
  const servers = [
    { variable: 'TEST_POSTGRES_ADMIN_URL', url: TEST_POSTGRES_ADMIN_URL, protocols: ['postgres:', 'postgresql:'] },
    { variable: 'TEST_MYSQL_ADMIN_URL', url: TEST_MYSQL_ADMIN_URL, protocols: ['mysql:'] },
  ];
  for (const { variable, url, protocols } of servers) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${variable} is not a URL`);
    }
    if (!protocols.includes(parsed.protocol)) throw new Error(`${variable} must be a ${protocols.join(' or ')} URL`);
    if (!LOOPBACK.has(parsed.hostname)) {
      throw new Error(
        `${variable} must name a server on this machine (127.0.0.1, localhost or ::1): the e2e suite creates and drops databases there`,
      );
    }
  }
}
