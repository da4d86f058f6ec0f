import { describePersistenceContracts, describeSharedDatabaseContract } from '../../../../../test/contracts/persistence.contracts';
import { mysqlPersistence } from '../../../../../test/contracts/module-persistence';
import { serverAvailableSync } from '../../../../../test/harness/services';
import { MYSQL_MIGRATIONS } from './migrations';
import { MySqlPersistenceModule } from './mysql-persistence.module';

(serverAvailableSync(3306, 'MySQL / MariaDB') ? describe : describe.skip)(`${MySqlPersistenceModule.name} on MySQL / MariaDB`, () => {
  const mysql = mysqlPersistence();
  describePersistenceContracts(mysql.make);
  describeSharedDatabaseContract(mysql.make);

  it('applies every MySQL migration', async () => {
    const store = await mysql.open();
    try {
      const applied: Array<{ name: string }> = await store.dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual(MYSQL_MIGRATIONS.map((m) => m.name));
    } finally {
      await store.dispose();
    }
  });
});
