import { existsSync } from 'node:fs';
import { describePersistenceContracts, describeSharedDatabaseContract } from '../../../../../test/contracts/persistence.contracts';
import { openSqlitePersistence, sqliteFilePersistence } from '../../../../../test/contracts/module-persistence';
import { SQLITE_MIGRATIONS } from './migrations';
import { SqlitePersistenceModule } from './sqlite-persistence.module';

describe(`${SqlitePersistenceModule.name} on SQLite files`, () => {
  const sqlite = sqliteFilePersistence();
  describePersistenceContracts(sqlite.make);

  it('runs on a real file with every SQLite migration applied', async () => {
    const path = sqlite.newPath();
    const store = await openSqlitePersistence(path);
    try {
      expect(existsSync(path)).toBe(true);
      await expect(store.dataSource.showMigrations()).resolves.toBe(false);
      const applied: Array<{ name: string }> = await store.dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual(SQLITE_MIGRATIONS.map((m) => m.name));
    } finally {
      await store.dispose();
    }
  });

  describe('on one file', () => {
    let path: string;
    beforeEach(() => {
      path = sqlite.newPath();
    });
    describeSharedDatabaseContract(() => openSqlitePersistence(path));
  });
});
