import { type DeviceActivation } from '@svc/domain';
import {
  T0,
  makeAnalyticsEvent,
  makeApiKey,
  makeAuditEntry,
  makeUser,
  randomDigest,
  uniqueId,
} from '../../../../../test/factories/domain.factory';
import Database from 'better-sqlite3';
import { SqliteStatements } from './sqlite-statements';
import { openSqlitePersistence, sqliteFilePersistence } from '../../../../../test/contracts/module-persistence';

/**
 * SQLite has one connection per process: a transaction open on it takes in
 * every statement run meanwhile. Writes therefore take turns: a change that
 * fails and rolls back takes no other writer's committed work with it.
 */
describe('writes on SQLite take turns', () => {
  const sqlite = sqliteFilePersistence();

  const activationOf = (licenseId: string): DeviceActivation => ({
    id: uniqueId('dev'),
    licenseId,
    fingerprintDigest: randomDigest(),
    name: null,
    platform: null,
    at: T0,
    maxDevices: null,
    heldSince: null,
  });

  it('an event stored while a device change is under way stays stored when that change rolls back', async () => {
    const store = await openSqlitePersistence(sqlite.newPath());
    try {
      const user = makeUser();
      await store.users.insert(user);
      const key = makeApiKey({ userId: user.id });
      await store.keys.insert(key, { audit: [], events: [] });
      const event = makeAnalyticsEvent({ keyId: key.id, licenseId: key.licenseId });

      const refused = store.devices.activate(activationOf(key.licenseId), () => {
        throw new Error('records refused');
      });
      const stored = store.unitOfWork.run(async ({ events }) => events.storeAll([event]));

      await expect(refused).rejects.toThrow('records refused');
      await stored;
      const rows: unknown[] = await store.dataSource.query('SELECT id FROM analytics_events WHERE id = ?', [event.id]);
      expect(rows).toHaveLength(1);
      await expect(store.devices.listByLicense(key.licenseId)).resolves.toEqual([]);
    } finally {
      await store.dispose();
    }
  });

  it('a user, an audit entry and a generated secret written while a transaction is open stay when it rolls back', async () => {
    const store = await openSqlitePersistence(sqlite.newPath());
    try {
      // another SqliteStatements on the same file: the turns are the file's, whichever connection or instance asks
      const statements = new SqliteStatements(store.dataSource);
      const user = makeUser();
      const entry = makeAuditEntry();
      const name = uniqueId('secret');
      let written: Promise<unknown> = Promise.resolve();
      const failed = statements.transaction(async (manager) => {
        await manager.query('SELECT 1');
        written = Promise.all([store.users.insert(user), store.audit.append(entry), store.secrets.keepFirst(name, 'kept', T0)]);
        // long enough for the writes to run now, were they not waiting for their turn
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error('rolled back');
      });

      await expect(failed).rejects.toThrow('rolled back');
      await written;
      await expect(store.users.findById(user.id)).resolves.toEqual(user);
      const rows: unknown[] = await store.dataSource.query('SELECT id FROM audit_log WHERE id = ?', [entry.id]);
      expect(rows).toHaveLength(1);
      await expect(store.secrets.find(name)).resolves.toBe('kept');
    } finally {
      await store.dispose();
    }
  });

  it("a transaction holds the file's write lock from its start: another process cannot write between its read and its write, and it commits", async () => {
    const store = await openSqlitePersistence(sqlite.newPath());
    // another process's connection to the file, which does not wait for the lock
    const other = new Database(store.dataSource.options.database as string, { timeout: 0 });
    try {
      const before = makeUser();
      const meanwhile = makeUser();
      const inside = makeUser();
      await store.users.insert(before);
      let refused: unknown = null;
      await new SqliteStatements(store.dataSource).transaction(async (manager) => {
        await manager.query('SELECT COUNT(*) FROM users');
        try {
          other
            .prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)')
            .run(meanwhile.id, meanwhile.email, '2026-01-01 00:00:00.000');
        } catch (error) {
          refused = error;
        }
        // begun DEFERRED, this write would fail (SQLITE_BUSY_SNAPSHOT): the other write came after this transaction's read
        await manager.query('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)', [
          inside.id,
          inside.email,
          '2026-01-01 00:00:00.000',
        ]);
      });
      expect(refused).toMatchObject({ code: 'SQLITE_BUSY' });
      await expect(store.users.findById(inside.id)).resolves.toMatchObject({ id: inside.id });
      await expect(store.users.findById(meanwhile.id)).resolves.toBeNull();
    } finally {
      other.close();
      await store.dispose();
    }
  });
});
