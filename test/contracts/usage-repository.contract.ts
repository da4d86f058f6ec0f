import { UsageRepository } from '@svc/domain';
import { makeAnalyticsEvent } from '../factories/domain.factory';
import { type MakePersistence, seedKey, useFixture } from './persistence-fixture';

const MARCH = '2026-03';
const APRIL = '2026-04';

/**
 * What every UsageRepository adapter must read: what the events consumed, per
 * key and period (consumption itself is the events' contract).
 */
export function describeUsageRepositoryContract(make: MakePersistence): void {
  describe(`${UsageRepository.name} contract`, () => {
    const fixture = useFixture(make);

    it('counts nothing for a key and period never consumed', async () => {
      const f = fixture();
      await expect(f.usage.usedIn((await seedKey(f)).id, MARCH)).resolves.toBe(0);
    });

    it('reads what the events of the period consumed, and nothing they were refused', async () => {
      const f = fixture();
      const key = (await seedKey(f)).id;
      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, period: MARCH }), 4, 10);
      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, period: MARCH }), 5, 10);
      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, period: MARCH }), 2, 10);
      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, period: MARCH, eventType: 'model_load' }), 0, 10);

      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(9);
    });

    it('keeps periods and keys apart', async () => {
      const f = fixture();
      const a = (await seedKey(f)).id;
      const b = (await seedKey(f)).id;
      await f.seedUsage(a, MARCH, 7);
      await f.seedUsage(a, APRIL, 2);
      await f.seedUsage(b, MARCH, 3_000_000_001);

      await expect(f.usage.usedIn(a, MARCH)).resolves.toBe(7);
      await expect(f.usage.usedIn(a, APRIL)).resolves.toBe(2);
      await expect(f.usage.usedIn(b, MARCH)).resolves.toBe(3_000_000_001);
      await expect(f.usage.usedIn(b, APRIL)).resolves.toBe(0);
    });
  });
}
