import { ApiKey, ApiKeyRepository } from '@svc/domain';
import { DAY_MS, T0, makeApiKey, randomDigest, revokeAlone } from '../factories/domain.factory';
import { type MakePersistence, seedKey, useFixture } from './persistence-fixture';
import { expectRefused } from './refused';

/** The behaviour every ApiKeyRepository adapter must share (STYLE 9: contract suites). */
export function describeApiKeyRepositoryContract(make: MakePersistence): void {
  describe(`${ApiKeyRepository.name} contract`, () => {
    const fixture = useFixture(make);

    describe('insert and find', () => {
      it.each([
        ['the tier', { source: 'tier' } as const],
        ['an override', { source: 'override', limit: 1234 } as const],
        ['an override of 0', { source: 'override', limit: 0 } as const],
        ['unlimited', { source: 'override', limit: null } as const],
        ['an override beyond 32 bits', { source: 'override', limit: 5_000_000_000 } as const],
      ])('round-trips every field, with a limit following %s', async (_, monthlyLimit) => {
        const f = fixture();
        const key = await seedKey(f, {
          environment: 'test',
          licenseType: 'commercial',
          expiresAt: new Date('2027-01-31T23:59:59.123Z'),
          createdAt: new Date('2026-01-31T08:15:30.456Z'),
          monthlyLimit,
        });

        const byId = await f.keys.findById(key.id);
        const byDigest = await f.keys.findByDigest(key.props.digest);

        expect(byId?.props).toEqual(key.props);
        expect(byDigest?.props).toEqual(key.props);
      });

      it.each([
        ['year 1', '0001-01-01T00:00:00.000Z'],
        ['a century with two-digit-year pitfalls', '0069-07-20T20:17:40.001Z'],
        ['the last millisecond of year 9999', '9999-12-31T23:59:59.999Z'],
      ])('keeps an expiry in %s exact, read by id and by digest', async (_, iso) => {
        const f = fixture();
        const key = await seedKey(f, { expiresAt: new Date(iso) });

        expect((await f.keys.findById(key.id))?.expiresAt.toISOString()).toBe(iso);
        expect((await f.keys.findByDigest(key.props.digest))?.expiresAt.toISOString()).toBe(iso);
      });

      it('answers null for an unknown id or digest', async () => {
        const f = fixture();
        await seedKey(f);
        await expect(f.keys.findById('key_unknown')).resolves.toBeNull();
        await expect(f.keys.findByDigest(randomDigest())).resolves.toBeNull();
      });

      it('finds by the exact digest only: no other case, no prefix, no padding', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const digest = key.props.digest;

        await expect(f.keys.findByDigest(digest.toUpperCase())).resolves.toBeNull();
        await expect(f.keys.findByDigest(digest.slice(0, 63))).resolves.toBeNull();
        await expect(f.keys.findByDigest(`${digest} `)).resolves.toBeNull();
        await expect(f.keys.findByDigest(`${digest.slice(0, 60)}%`)).resolves.toBeNull();
        expect((await f.keys.findByDigest(digest))?.id).toBe(key.id);
      });

      it('tells keys apart', async () => {
        const f = fixture();
        const a = await seedKey(f, { licenseType: 'free' });
        const b = await seedKey(f, { licenseType: 'enterprise' });
        expect((await f.keys.findByDigest(a.props.digest))?.licenseType).toBe('free');
        expect((await f.keys.findByDigest(b.props.digest))?.licenseType).toBe('enterprise');
      });

      it('refuses a second key with the same digest', async () => {
        const f = fixture();
        const first = await seedKey(f);
        const twin = makeApiKey({ userId: first.userId, digest: first.props.digest });
        await expectRefused(f.keys.insert(twin));
        await expect(f.keys.findById(twin.id)).resolves.toBeNull();
      });

      it('refuses a second key with the same id', async () => {
        const f = fixture();
        const first = await seedKey(f);
        await expectRefused(f.keys.insert(makeApiKey({ id: first.id, userId: first.userId })));
        expect((await f.keys.findById(first.id))?.props.digest).toBe(first.props.digest);
      });
    });

    describe('revoke (a key alone)', () => {
      it('revokes once: true, then false, and the first time stays', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const first = new Date(T0.getTime() + 1000);

        await expect(revokeAlone(f.keys, key.id, first)).resolves.toBe(true);
        await expect(revokeAlone(f.keys, key.id, new Date(T0.getTime() + 2000))).resolves.toBe(false);

        expect((await f.keys.findById(key.id))?.revokedAt).toEqual(first);
      });

      it('keeps a revoked key findable by digest, marked revoked (the caller decides what that means)', async () => {
        const f = fixture();
        const key = await seedKey(f);
        await revokeAlone(f.keys, key.id, T0);

        const found = await f.keys.findByDigest(key.props.digest);
        expect(found?.revokedAt).toEqual(T0);
        expect(found?.statusAt(T0)).toBe('revoked');
      });

      it('answers false for an unknown key', async () => {
        const f = fixture();
        await expect(revokeAlone(f.keys, 'key_unknown', T0)).resolves.toBe(false);
      });

      it('lets exactly one of 20 concurrent revocations win', async () => {
        const f = fixture();
        const key = await seedKey(f);

        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => revokeAlone(f.keys, key.id, new Date(T0.getTime() + i * 1000))),
        );

        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect((await f.keys.findById(key.id))?.revokedAt).toEqual(new Date(T0.getTime() + winner * 1000));
      });

      it('revokes only the key named', async () => {
        const f = fixture();
        const a = await seedKey(f);
        const b = await seedKey(f);
        await revokeAlone(f.keys, a.id, T0);
        expect((await f.keys.findById(b.id))?.revokedAt).toBeNull();
      });
    });

    describe('updateTerms', () => {
      it('saves tier, expiry and limit', async () => {
        const f = fixture();
        const key = await seedKey(f, { licenseType: 'free', monthlyLimit: { source: 'tier' } });
        const expiresAt = new Date(T0.getTime() + 30 * DAY_MS);

        const saved = await f.keys.updateTerms(
          key.with({ licenseType: 'enterprise', expiresAt, monthlyLimit: { source: 'override', limit: 42 } }),
        );

        expect(saved).toBe(true);
        const stored = await f.keys.findById(key.id);
        expect(stored?.props).toEqual({
          ...key.props,
          licenseType: 'enterprise',
          expiresAt,
          monthlyLimit: { source: 'override', limit: 42 },
        });
      });

      it.each([
        ['back to the tier', { source: 'override', limit: 7 } as const, { source: 'tier' } as const],
        ['to unlimited', { source: 'override', limit: 7 } as const, { source: 'override', limit: null } as const],
        ['from unlimited to 0', { source: 'override', limit: null } as const, { source: 'override', limit: 0 } as const],
      ])('changes the limit %s', async (_, from, to) => {
        const f = fixture();
        const key = await seedKey(f, { monthlyLimit: from });
        await expect(f.keys.updateTerms(key.with({ monthlyLimit: to }))).resolves.toBe(true);
        expect((await f.keys.findById(key.id))?.props.monthlyLimit).toEqual(to);
      });

      it('saves only the terms: never the digest, owner, revocation or creation time', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const tampered = new ApiKey({
          ...key.props,
          licenseType: 'commercial',
          digest: randomDigest(),
          displayPrefix: 'svc_test_fff',
          revokedAt: T0,
          createdAt: new Date(0),
        });

        await expect(f.keys.updateTerms(tampered)).resolves.toBe(true);

        expect((await f.keys.findById(key.id))?.props).toEqual({ ...key.props, licenseType: 'commercial' });
        expect((await f.keys.findByDigest(key.props.digest))?.id).toBe(key.id);
      });

      it('refuses a revoked key and leaves it as it was', async () => {
        const f = fixture();
        const key = await seedKey(f, { licenseType: 'free' });
        await revokeAlone(f.keys, key.id, T0);

        await expect(f.keys.updateTerms(key.with({ licenseType: 'enterprise' }))).resolves.toBe(false);

        const stored = await f.keys.findById(key.id);
        expect(stored?.licenseType).toBe('free');
        expect(stored?.revokedAt).toEqual(T0);
      });

      it('answers false for an unknown key and stores nothing', async () => {
        const f = fixture();
        const ghost = makeApiKey();
        await expect(f.keys.updateTerms(ghost)).resolves.toBe(false);
        await expect(f.keys.findById(ghost.id)).resolves.toBeNull();
      });
    });
  });
}
