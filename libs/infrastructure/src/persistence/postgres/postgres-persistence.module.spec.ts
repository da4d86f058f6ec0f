import { describePersistenceContracts, describeSharedDatabaseContract } from '../../../../../test/contracts/persistence.contracts';
import { postgresPersistence } from '../../../../../test/contracts/module-persistence';
import { serverAvailableSync } from '../../../../../test/harness/services';
import { POSTGRES_MIGRATIONS } from './migrations';
import { PostgresPersistenceModule } from './postgres-persistence.module';

(serverAvailableSync(5432, 'PostgreSQL') ? describe : describe.skip)(`${PostgresPersistenceModule.name} on PostgreSQL`, () => {
  const postgres = postgresPersistence();
  describePersistenceContracts(postgres.make);
  describeSharedDatabaseContract(postgres.make);

  it('applies every PostgreSQL migration', async () => {
    const store = await postgres.open();
    try {
      const applied: Array<{ name: string }> = await store.dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.name));
    } finally {
      await store.dispose();
    }
  });
});
