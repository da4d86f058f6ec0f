import { UsageRepository } from '@svc/domain';
import { MakePersistence, PersistenceFixture, seedKey, useFixture } from './persistence-fixture';

const MARCH = '2026-03';
const APRIL = '2026-04';

/** The behaviour every UsageRepository adapter must share: atomic, never over the limit, nothing lost. */
export function describeUsageRepositoryContract(make: MakePersistence): void {
  describe(`${UsageRepository.name} contract`, () => {
    const fixture = useFixture(make);

    async function keyIn(f: PersistenceFixture): Promise<string> {
      return (await seedKey(f)).id;
    }

    /** Brings a counter to `used` in steps, through the port itself. */
    async function consumeTo(f: PersistenceFixture, keyId: string, period: string, used: number): Promise<void> {
      if (used > 0) await expect(f.usage.tryConsume(keyId, period, used, null)).resolves.toBe(used);
    }

    it('counts nothing for a key and period never consumed', async () => {
      const f = fixture();
      await expect(f.usage.usedIn(await keyIn(f), MARCH)).resolves.toBe(0);
    });

    it('adds the cost and answers the new total', async () => {
      const f = fixture();
      const key = await keyIn(f);

      await expect(f.usage.tryConsume(key, MARCH, 1, 10)).resolves.toBe(1);
      await expect(f.usage.tryConsume(key, MARCH, 3, 10)).resolves.toBe(4);

      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(4);
    });

    it('allows reaching the limit exactly, then refuses and leaves used alone', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await consumeTo(f, key, MARCH, 9);

      await expect(f.usage.tryConsume(key, MARCH, 1, 10)).resolves.toBe(10);
      await expect(f.usage.tryConsume(key, MARCH, 1, 10)).resolves.toBeNull();

      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(10);
    });

    it('refuses a cost that would pass the limit even when some is left', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await consumeTo(f, key, MARCH, 8);

      await expect(f.usage.tryConsume(key, MARCH, 3, 10)).resolves.toBeNull();
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(8);
    });

    it('refuses a first cost above the limit without counting anything', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await expect(f.usage.tryConsume(key, MARCH, 5, 4)).resolves.toBeNull();
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(0);
    });

    it('refuses everything under a limit of 0', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await expect(f.usage.tryConsume(key, MARCH, 1, 0)).resolves.toBeNull();
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(0);
    });

    it('refuses when the limit was lowered below what is already used', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await consumeTo(f, key, MARCH, 50);
      await expect(f.usage.tryConsume(key, MARCH, 1, 20)).resolves.toBeNull();
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(50);
    });

    it('accepts a zero cost even when the quota is used up, answering the unchanged total', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await consumeTo(f, key, MARCH, 10);
      await expect(f.usage.tryConsume(key, MARCH, 0, 10)).resolves.toBe(10);
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(10);
    });

    it('never refuses without a limit, and still counts', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await expect(f.usage.tryConsume(key, MARCH, 3_000_000_000, null)).resolves.toBe(3_000_000_000);
      await expect(f.usage.tryConsume(key, MARCH, 1, null)).resolves.toBe(3_000_000_001);
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(3_000_000_001);
    });

    it('keeps periods apart: a new period starts at 0 and the past one stays', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await consumeTo(f, key, MARCH, 10);

      await expect(f.usage.tryConsume(key, MARCH, 1, 10)).resolves.toBeNull();
      await expect(f.usage.tryConsume(key, APRIL, 1, 10)).resolves.toBe(1);

      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(10);
      await expect(f.usage.usedIn(key, APRIL)).resolves.toBe(1);
    });

    it('keeps keys apart', async () => {
      const f = fixture();
      const a = await keyIn(f);
      const b = await keyIn(f);
      await consumeTo(f, a, MARCH, 7);
      await expect(f.usage.usedIn(b, MARCH)).resolves.toBe(0);
      await expect(f.usage.tryConsume(b, MARCH, 1, 1)).resolves.toBe(1);
      await expect(f.usage.usedIn(a, MARCH)).resolves.toBe(7);
    });

    it('lets exactly 30 of 100 concurrent consumers through when 30 are left', async () => {
      const f = fixture();
      const key = await keyIn(f);
      await consumeTo(f, key, MARCH, 70);

      const results = await Promise.all(Array.from({ length: 100 }, () => f.usage.tryConsume(key, MARCH, 1, 100)));

      const granted = results.filter((r): r is number => r !== null);
      expect(granted).toHaveLength(30);
      expect([...granted].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => 71 + i));
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(100);
    });

    it('loses no increment under 100 concurrent consumers of a fresh unlimited counter', async () => {
      const f = fixture();
      const key = await keyIn(f);

      const results = await Promise.all(Array.from({ length: 100 }, () => f.usage.tryConsume(key, MARCH, 1, null)));

      expect([...(results as number[])].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(100);
    });
  });
}
