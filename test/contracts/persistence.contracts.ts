import { T0, makeAnalyticsEvent, revokeAlone, NO_RECORDS } from '../factories/domain.factory';
import { describeAnalyticsEventRepositoryContract } from './analytics-event-repository.contract';
import { describeApiKeyRepositoryContract } from './api-key-repository.contract';
import { describeAuditLogContract } from './audit-log.contract';
import { describeKeyChangeContract } from './key-change.contract';
import { describeKeyContextRepositoryContract } from './key-context-repository.contract';
import { describeKeyRotationContract, rotationOf } from './key-rotation.contract';
import { describeKeyDirectoryContract } from './key-directory.contract';
import { describeModelRepositoryContract } from './model-repository.contract';
import { type MakePersistence, type PersistenceFixture, seedKey } from './persistence-fixture';
import { describeUsageRepositoryContract } from './usage-repository.contract';
import { describeUserRepositoryContract } from './user-repository.contract';

/** Every persistence port's contract, over one adapter family (a database's module, or the in-memory fakes). */
export function describePersistenceContracts(make: MakePersistence): void {
  describeApiKeyRepositoryContract(make);
  describeKeyRotationContract(make);
  describeKeyChangeContract(make);
  describeUserRepositoryContract(make);
  describeUsageRepositoryContract(make);
  describeKeyContextRepositoryContract(make);
  describeAuditLogContract(make);
  describeAnalyticsEventRepositoryContract(make);
  describeModelRepositoryContract(make);
  describeKeyDirectoryContract(make);
}

/**
 * Two service instances on one database (two modules, two connections or
 * pools): what one writes the other reads at once, exactly one revocation
 * wins, and consumption through either never passes the limit together nor
 * loses an increment. `open` makes another instance on the same, empty database.
 */
export function describeSharedDatabaseContract(open: () => Promise<PersistenceFixture>): void {
  describe('two service instances sharing one database', () => {
    let one: PersistenceFixture;
    let two: PersistenceFixture;
    beforeEach(async () => {
      one = await open();
      two = await open();
    });
    afterEach(async () => {
      await one?.dispose();
      await two?.dispose();
    });

    it('see a revocation at once, and only one of them wins it', async () => {
      const key = await seedKey(one);
      await expect(two.keys.findByDigest(key.props.digest)).resolves.not.toBeNull();

      const results = await Promise.all([revokeAlone(one.keys, key.id, T0), revokeAlone(two.keys, key.id, T0)]);

      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await two.keys.findByDigest(key.props.digest))?.revokedAt).toEqual(T0);
      expect((await one.keys.findById(key.id))?.revokedAt).toEqual(T0);
    });

    it('of rotations of one key racing on both, exactly one wins (CONTRACT 16)', async () => {
      const key = await seedKey(one);
      const rotations = Array.from({ length: 10 }, () => rotationOf(key));
      const results = await Promise.all(rotations.map((r, i) => (i % 2 === 0 ? one : two).keys.rotate(r, NO_RECORDS)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await two.keys.findByLicense(key.id)).toHaveLength(2);
    });

    it('never pass the limit together, and lose no increment', async () => {
      const key = await seedKey(one);
      await one.seedUsage(key.id, '2026-03', 70);

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? one : two).events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, period: '2026-03' }), 1, 100),
        ),
      );

      expect(results.filter((r) => r !== null)).toHaveLength(30);
      await expect(two.usage.usedIn(key.id, '2026-03')).resolves.toBe(100);
    });

    it('store exactly the events the limit lets through when both append to a fresh period at once', async () => {
      const key = await seedKey(one);

      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? one : two).events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, period: '2026-04' }), 1, 25),
        ),
      );

      expect(results.filter((r) => r !== null)).toHaveLength(25);
      await expect(one.usage.usedIn(key.id, '2026-04')).resolves.toBe(25);
      expect((await two.events.breakdown(key.id, '2026-04')).byEventType.inference).toBe(25);
    });
  });
}
