import { describeUsageRepositoryContract } from '../../../../../test/contracts/usage-repository.contract';
import { seedKey } from '../../../../../test/contracts/persistence-fixture';
import { openTypeOrmPersistence, sqliteFilePersistence } from '../../../../../test/contracts/typeorm-persistence';
import { TypeOrmUsageRepository } from './repositories/typeorm-usage.repository';

describe(`${TypeOrmUsageRepository.name} on a SQLite file`, () => {
  const sqlite = sqliteFilePersistence();
  describeUsageRepositoryContract(sqlite.make);

  describe('two service instances sharing one file', () => {
    it('never pass the limit together, and lose no increment', async () => {
      const path = sqlite.newPath();
      const one = await openTypeOrmPersistence({ kind: 'sqlite', path, busyTimeoutMs: 5000 });
      const two = await openTypeOrmPersistence({ kind: 'sqlite', path, busyTimeoutMs: 5000 });
      try {
        const key = await seedKey(one);
        await one.usage.tryConsume(key.id, '2026-03', 70, 100);

        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).usage.tryConsume(key.id, '2026-03', 1, 100)),
        );

        expect(results.filter((r) => r !== null)).toHaveLength(30);
        await expect(two.usage.usedIn(key.id, '2026-03')).resolves.toBe(100);
      } finally {
        await one.dispose();
        await two.dispose();
      }
    });
  });
});
