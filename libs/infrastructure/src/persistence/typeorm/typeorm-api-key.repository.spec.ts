import { existsSync } from 'node:fs';
import { describeApiKeyRepositoryContract } from '../../../../../test/contracts/api-key-repository.contract';
import { seedKey } from '../../../../../test/contracts/persistence-fixture';
import { openTypeOrmPersistence, sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { T0 } from '../../../../../test/factories/domain.factory';
import { SQLITE_MIGRATIONS } from '../sqlite/migrations';
import { TypeOrmApiKeyRepository } from './repositories/typeorm-api-key.repository';

describe(`${TypeOrmApiKeyRepository.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeApiKeyRepositoryContract(sqlite.make);

  it('runs on a real file with every SQLite migration applied', async () => {
    const path = sqlite.newPath();
    const store = await openTypeOrmPersistence({ kind: 'sqlite', path, busyTimeoutMs: 5000 });
    try {
      expect(existsSync(path)).toBe(true);
      await expect(store.dataSource.showMigrations()).resolves.toBe(false);
      const applied: Array<{ name: string }> = await store.dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual(SQLITE_MIGRATIONS.map((m) => m.name));
    } finally {
      await store.dispose();
    }
  });

  describe('two service instances sharing one file', () => {
    it('see a revocation at once, and only one of them wins it', async () => {
      const path = sqlite.newPath();
      const one = await openTypeOrmPersistence({ kind: 'sqlite', path, busyTimeoutMs: 5000 });
      const two = await openTypeOrmPersistence({ kind: 'sqlite', path, busyTimeoutMs: 5000 });
      try {
        const key = await seedKey(one);
        await expect(two.keys.findByDigest(key.props.digest)).resolves.not.toBeNull();

        const results = await Promise.all([one.keys.markRevoked(key.id, T0), two.keys.markRevoked(key.id, T0)]);

        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await two.keys.findByDigest(key.props.digest))?.revokedAt).toEqual(T0);
        expect((await one.keys.findById(key.id))?.revokedAt).toEqual(T0);
      } finally {
        await one.dispose();
        await two.dispose();
      }
    });
  });
});
