import { KeyContextRepository } from '@svc/domain';
import { T0, makeApiKey, makeUser, randomDigest, makeAnalyticsEvent, revokeAlone } from '../factories/domain.factory';
import { type MakePersistence, seedKey, useFixture } from './persistence-fixture';

const MARCH = '2026-03';
const APRIL = '2026-04';

/** The behaviour every KeyContextRepository adapter must share: the same answers as the three ports it reads, in one read. */
export function describeKeyContextRepositoryContract(make: MakePersistence): void {
  describe(`${KeyContextRepository.name} contract`, () => {
    const fixture = useFixture(make);

    it.each([
      ['the tier', { source: 'tier' } as const],
      ['an override', { source: 'override', limit: 1234 } as const],
      ['unlimited', { source: 'override', limit: null } as const],
      ['an override beyond 32 bits', { source: 'override', limit: 5_000_000_000 } as const],
    ])('answers the key, its user and 0 used for a key never counted, with a limit following %s', async (_, monthlyLimit) => {
      const f = fixture();
      const user = makeUser({ createdAt: new Date('2026-02-28T23:59:59.999Z') });
      await f.users.insert(user);
      const key = makeApiKey({
        userId: user.id,
        environment: 'test',
        licenseType: 'commercial',
        expiresAt: new Date('2027-01-31T23:59:59.123Z'),
        createdAt: new Date('2026-01-31T08:15:30.456Z'),
        monthlyLimit,
      });
      await f.keys.insert(key);

      const context = await f.contexts.findByDigest(key.props.digest, MARCH);

      expect(context?.key.props).toEqual(key.props);
      expect(context?.user).toEqual(user);
      expect(context?.used).toBe(0);
    });

    it('answers a user without name or organization', async () => {
      const f = fixture();
      const user = makeUser({ name: null, organization: null });
      await f.users.insert(user);
      const key = makeApiKey({ userId: user.id });
      await f.keys.insert(key);

      await expect(f.contexts.findByDigest(key.props.digest, MARCH)).resolves.toMatchObject({ user });
    });

    it('counts the usage of the period asked for only, and of that key only', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const other = await seedKey(f);
      await f.seedUsage(key.id, MARCH, 7);
      await f.seedUsage(key.id, APRIL, 3);
      await f.seedUsage(other.id, MARCH, 5_000_000_000);

      expect((await f.contexts.findByDigest(key.props.digest, MARCH))?.used).toBe(7);
      expect((await f.contexts.findByDigest(key.props.digest, APRIL))?.used).toBe(3);
      expect((await f.contexts.findByDigest(key.props.digest, '2026-05'))?.used).toBe(0);
      expect((await f.contexts.findByDigest(other.props.digest, MARCH))?.used).toBe(5_000_000_000);
    });

    it('sees every change at once: a consumption, a revocation, new terms (nothing is cached)', async () => {
      const f = fixture();
      const key = await seedKey(f, { licenseType: 'free' });
      await expect(f.contexts.findByDigest(key.props.digest, MARCH)).resolves.toMatchObject({ used: 0 });

      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, period: MARCH }), 1, 10);
      await f.keys.updateTerms(key.with({ licenseType: 'enterprise' }));
      await revokeAlone(f.keys, key.id, T0);

      const context = await f.contexts.findByDigest(key.props.digest, MARCH);
      expect(context?.used).toBe(1);
      expect(context?.key.licenseType).toBe('enterprise');
      expect(context?.key.revokedAt).toEqual(T0);
      expect(context?.key.statusAt(T0)).toBe('revoked');
    });

    it('answers revoked and expired keys as they are (the caller judges them)', async () => {
      const f = fixture();
      const expired = await seedKey(f, { expiresAt: new Date(T0.getTime() - 1) });
      const revoked = await seedKey(f, { revokedAt: T0 });

      expect((await f.contexts.findByDigest(expired.props.digest, MARCH))?.key.statusAt(T0)).toBe('expired');
      expect((await f.contexts.findByDigest(revoked.props.digest, MARCH))?.key.statusAt(T0)).toBe('revoked');
    });

    it('agrees with the key and user ports', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const context = await f.contexts.findByDigest(key.props.digest, MARCH);

      expect(context?.key.props).toEqual((await f.keys.findByDigest(key.props.digest))?.props);
      expect(context?.user).toEqual(await f.users.findById(key.userId));
    });

    it('answers null for an unknown digest, and finds by the exact digest only', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const digest = key.props.digest;

      await expect(f.contexts.findByDigest(randomDigest(), MARCH)).resolves.toBeNull();
      await expect(f.contexts.findByDigest(digest.toUpperCase(), MARCH)).resolves.toBeNull();
      await expect(f.contexts.findByDigest(digest.slice(0, 63), MARCH)).resolves.toBeNull();
      await expect(f.contexts.findByDigest(`${digest.slice(0, 60)}%`, MARCH)).resolves.toBeNull();
      expect((await f.contexts.findByDigest(digest, MARCH))?.key.id).toBe(key.id);
    });
  });
}
