import { KeyDirectory } from '@svc/application';
import { type ApiKey, LICENSE_TYPES, type LicenseType } from '@svc/domain';
import { T0, makeApiKey, makeUser, randomDigest, NO_RECORDS } from '../factories/domain.factory';
import { rotationOf } from './key-rotation.contract';
import { type MakePersistence, type PersistenceFixture, useFixture } from './persistence-fixture';

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const TIER_LIMITS: Record<LicenseType, number | null> = { free: 100, research: 1000, commercial: 10000, enterprise: null };

/**
 * The behaviour every KeyDirectory adapter must share: searches newest first
 * with every filter, pages that continue after a position (stable under
 * inserts), counts by tier and status, and keys near their quota.
 */
export function describeKeyDirectoryContract(make: MakePersistence): void {
  describe(`${KeyDirectory.name} contract`, () => {
    const fixture = useFixture(make);

    async function userOf(f: PersistenceFixture, email: string): Promise<string> {
      const user = makeUser({ email });
      await f.users.insert(user);
      return user.id;
    }

    async function keyOf(f: PersistenceFixture, userId: string, overrides: Parameters<typeof makeApiKey>[0] = {}): Promise<ApiKey> {
      const key = makeApiKey({ userId, digest: randomDigest(), ...overrides });
      await f.keys.insert(key);
      return key;
    }

    const ids = (listings: ReadonlyArray<{ key: ApiKey }>) => listings.map((l) => l.key.id);
    const search = (f: PersistenceFixture, query: Partial<Parameters<KeyDirectory['search']>[0]> = {}) =>
      f.directory.search({ at: T0, limit: 50, ...query });

    describe('search', () => {
      it('answers nothing when there are no keys', async () => {
        await expect(search(fixture())).resolves.toEqual([]);
      });

      it("lists keys newest first, ties in time by id descending, each with its holder's e-mail, whole", async () => {
        const f = fixture();
        const user = await userOf(f, 'ada@example.org');
        const a = await keyOf(f, user, { id: 'key_a', createdAt: at(10) });
        const b = await keyOf(f, user, { id: 'key_b', createdAt: at(10) });
        const c = await keyOf(f, user, { id: 'key_c', createdAt: at(5), revokedAt: at(6), monthlyLimit: { source: 'override', limit: 7 } });
        const d = await keyOf(f, user, { id: 'key_d', createdAt: new Date(at(10).getTime() + 1) });

        const found = await search(f);

        expect(ids(found)).toEqual(['key_d', 'key_b', 'key_a', 'key_c']);
        expect(found[3]).toEqual({ key: c, email: 'ada@example.org' });
        expect(found.map((l) => l.key)).toEqual([d, b, a, c]);
      });

      it('filters by e-mail (exactly), user, tier and key prefix (its start)', async () => {
        const f = fixture();
        const ada = await userOf(f, 'ada@example.org');
        const bob = await userOf(f, 'bob@example.org');
        await keyOf(f, ada, { id: 'key_1', displayPrefix: 'svc_live_abc', licenseType: 'free', createdAt: at(1) });
        await keyOf(f, ada, { id: 'key_2', displayPrefix: 'svc_live_abd', licenseType: 'research', createdAt: at(2) });
        await keyOf(f, bob, { id: 'key_3', displayPrefix: 'svc_test_abc', licenseType: 'free', createdAt: at(3) });
        await keyOf(f, bob, { id: 'key_4', displayPrefix: 'svc_live_ab0', licenseType: 'enterprise', createdAt: at(4) });

        expect(ids(await search(f, { email: 'ada@example.org' }))).toEqual(['key_2', 'key_1']);
        expect(ids(await search(f, { emailPrefix: 'ada@' }))).toEqual(['key_2', 'key_1']);
        expect(ids(await search(f, { emailPrefix: 'b' }))).toEqual(['key_4', 'key_3']);
        expect(ids(await search(f, { emailPrefix: 'ada@example.org.' }))).toEqual([]);
        expect(ids(await search(f, { email: 'ada@example' }))).toEqual([]);
        expect(ids(await search(f, { userId: bob }))).toEqual(['key_4', 'key_3']);
        expect(ids(await search(f, { licenseType: 'free' }))).toEqual(['key_3', 'key_1']);
        expect(ids(await search(f, { prefix: 'svc_live_ab' }))).toEqual(['key_4', 'key_2', 'key_1']);
        expect(ids(await search(f, { prefix: 'svc_live_abc' }))).toEqual(['key_1']);
        expect(ids(await search(f, { prefix: 'svc_' }))).toEqual(['key_4', 'key_3', 'key_2', 'key_1']);
        expect(ids(await search(f, { prefix: 'svc_live_abcd' }))).toEqual([]);
        expect(ids(await search(f, { prefix: 'SVC_live' }))).toEqual([]);
        expect(ids(await search(f, { email: 'ada@example.org', licenseType: 'free', prefix: 'svc_live' }))).toEqual(['key_1']);
      });

      it("finds holders by their e-mail's search form (lower case), whole or by its start, however the address was typed", async () => {
        const f = fixture();
        const grace = await userOf(f, 'Grace.Hopper@Example.ORG');
        await userOf(f, 'grace@example.net');
        await keyOf(f, grace, { id: 'key_g', createdAt: at(1) });
        expect(ids(await search(f, { email: 'grace.hopper@example.org' }))).toEqual(['key_g']);
        expect(ids(await search(f, { email: 'Grace.Hopper@Example.ORG' }))).toEqual([]); // the port takes the search form
        expect(ids(await search(f, { emailPrefix: 'grace.h' }))).toEqual(['key_g']);
        expect(ids(await search(f, { emailPrefix: 'grace' }))).toEqual(['key_g']);
        expect(ids(await search(f, { emailPrefix: 'grace.hopper@example.org' }))).toEqual(['key_g']);
        expect(ids(await search(f, { emailPrefix: 'gracf' }))).toEqual([]);
      });

      it('filters by status at the instant given, as ApiKey.statusAt says', async () => {
        const f = fixture();
        const user = await userOf(f, 'ada@example.org');
        const now = at(100);
        const keys = [
          await keyOf(f, user, { id: 'key_active', createdAt: at(1), expiresAt: at(101) }),
          await keyOf(f, user, { id: 'key_expires_now', createdAt: at(2), expiresAt: now }),
          await keyOf(f, user, { id: 'key_expired', createdAt: at(3), expiresAt: at(50) }),
          await keyOf(f, user, { id: 'key_revoked', createdAt: at(4), expiresAt: at(500), revokedAt: at(5) }),
          await keyOf(f, user, { id: 'key_revoked_expired', createdAt: at(5), expiresAt: at(6), revokedAt: at(5) }),
        ];
        for (const status of ['active', 'expired', 'revoked'] as const) {
          const expected = keys
            .filter((k) => k.statusAt(now) === status)
            .map((k) => k.id)
            .reverse();
          expect(ids(await search(f, { status, at: now }))).toEqual(expected);
        }
        expect(ids(await search(f, { status: 'active', at: at(0) }))).toEqual(['key_expired', 'key_expires_now', 'key_active']);
      });

      it('pages after a position: keys issued meanwhile never shift nor repeat later pages', async () => {
        const f = fixture();
        const user = await userOf(f, 'ada@example.org');
        for (let i = 0; i < 7; i++) await keyOf(f, user, { id: `key_${i}`, createdAt: at(i < 4 ? 1 : i) });

        const first = await search(f, { limit: 3 });
        expect(ids(first)).toEqual(['key_6', 'key_5', 'key_4']);
        await keyOf(f, user, { id: 'key_new', createdAt: at(50) });
        await keyOf(f, user, { id: 'key_9', createdAt: at(1) }); // at the same time as later keys, after the page's end
        const last = first[first.length - 1].key;
        const second = await search(f, { limit: 3, after: { createdAt: last.props.createdAt, id: last.id } });
        expect(ids(second)).toEqual(['key_9', 'key_3', 'key_2']);
        const end = second[second.length - 1].key;
        const third = await search(f, { limit: 3, after: { createdAt: end.props.createdAt, id: end.id } });
        expect(ids(third)).toEqual(['key_1', 'key_0']);
        const filtered = await search(f, { limit: 10, prefix: 'svc_live', after: { createdAt: at(1), id: 'key_3' } });
        expect(ids(filtered)).toEqual(['key_2', 'key_1', 'key_0']);
      });
    });

    describe('countByTierAndStatus', () => {
      it('counts every key by tier and by status at the instant given', async () => {
        const f = fixture();
        const user = await userOf(f, 'ada@example.org');
        const now = at(100);
        await keyOf(f, user, { licenseType: 'free', expiresAt: at(200) });
        await keyOf(f, user, { licenseType: 'free', expiresAt: at(200) });
        await keyOf(f, user, { licenseType: 'free', expiresAt: now });
        await keyOf(f, user, { licenseType: 'research', expiresAt: at(200), revokedAt: at(1) });
        await keyOf(f, user, { licenseType: 'enterprise', expiresAt: at(50), revokedAt: at(1) });

        const counts = await f.directory.countByTierAndStatus(now);

        expect([...counts].sort((x, y) => `${x.licenseType}/${x.status}`.localeCompare(`${y.licenseType}/${y.status}`))).toEqual([
          { licenseType: 'enterprise', status: 'revoked', count: 1 },
          { licenseType: 'free', status: 'active', count: 2 },
          { licenseType: 'free', status: 'expired', count: 1 },
          { licenseType: 'research', status: 'revoked', count: 1 },
        ]);
        await expect(f.directory.countByTierAndStatus(at(0))).resolves.toEqual(
          expect.arrayContaining([{ licenseType: 'free', status: 'active', count: 3 }]),
        );
      });

      it('answers nothing without keys', async () => {
        await expect(fixture().directory.countByTierAndStatus(T0)).resolves.toEqual([]);
      });
    });

    describe('nearQuota', () => {
      it('answers keys at or above the share of their limit in force this period, highest first, never unlimited', async () => {
        const f = fixture();
        const ada = await userOf(f, 'ada@example.org');
        const free79 = await keyOf(f, ada, { id: 'key_free79', licenseType: 'free' });
        const free80 = await keyOf(f, ada, { id: 'key_free80', licenseType: 'free' });
        const research = await keyOf(f, ada, { id: 'key_research', licenseType: 'research' });
        const override = await keyOf(f, ada, { id: 'key_override', licenseType: 'free', monthlyLimit: { source: 'override', limit: 10 } });
        const over = await keyOf(f, ada, { id: 'key_over', licenseType: 'commercial', monthlyLimit: { source: 'override', limit: 50 } });
        const unlimited = await keyOf(f, ada, {
          id: 'key_unlimited',
          licenseType: 'free',
          monthlyLimit: { source: 'override', limit: null },
        });
        const enterprise = await keyOf(f, ada, { id: 'key_enterprise', licenseType: 'enterprise' });
        const zero = await keyOf(f, ada, { id: 'key_zero', licenseType: 'free', monthlyLimit: { source: 'override', limit: 0 } });
        const lastMonth = await keyOf(f, ada, { id: 'key_last_month', licenseType: 'free' });
        await f.seedUsage(free79.id, '2026-03', 79);
        await f.seedUsage(free80.id, '2026-03', 80);
        await f.seedUsage(research.id, '2026-03', 950);
        await f.seedUsage(override.id, '2026-03', 10);
        await f.seedUsage(over.id, '2026-03', 60);
        await f.seedUsage(unlimited.id, '2026-03', 1_000_000);
        await f.seedUsage(enterprise.id, '2026-03', 1_000_000);
        await f.seedUsage(zero.id, '2026-03', 0);
        await f.seedUsage(lastMonth.id, '2026-02', 100);

        const found = await f.directory.nearQuota({ period: '2026-03', tierLimits: TIER_LIMITS, atLeastPercent: 80, limit: 20 });

        expect(found.map((u) => [u.key.id, u.used, u.monthlyLimit])).toEqual([
          ['key_over', 60, 50],
          ['key_override', 10, 10],
          ['key_research', 950, 1000],
          ['key_free80', 80, 100],
        ]);
        expect(found[0]).toEqual({ key: over, email: 'ada@example.org', used: 60, monthlyLimit: 50 });
        const top = await f.directory.nearQuota({ period: '2026-03', tierLimits: TIER_LIMITS, atLeastPercent: 80, limit: 2 });
        expect(top.map((u) => u.key.id)).toEqual(['key_over', 'key_override']);
      });

      it("shows a license's usage once, on its current key: a key in its grace after a rotation shares the counter (CONTRACT 16)", async () => {
        const f = fixture();
        const ada = await userOf(f, 'ada@example.org');
        const old = await keyOf(f, ada, { id: 'key_old', licenseType: 'free' });
        const rotation = rotationOf(old, 3600);
        await expect(f.keys.rotate(rotation, NO_RECORDS)).resolves.toBe(true);
        await f.seedUsage(old.id, '2026-03', 90); // the license's counter: the license is the first key's id

        const found = await f.directory.nearQuota({ period: '2026-03', tierLimits: TIER_LIMITS, atLeastPercent: 80, limit: 20 });

        expect(found.map((u) => [u.key.id, u.used, u.monthlyLimit])).toEqual([[rotation.successor.id, 90, 100]]);
      });

      it('orders equal shares by key id', async () => {
        const f = fixture();
        const ada = await userOf(f, 'ada@example.org');
        for (const id of ['key_b', 'key_a', 'key_c']) {
          await keyOf(f, ada, { id, licenseType: 'free' });
          await f.seedUsage(id, '2026-03', 90);
        }
        const found = await f.directory.nearQuota({ period: '2026-03', tierLimits: TIER_LIMITS, atLeastPercent: 80, limit: 20 });
        expect(found.map((u) => u.key.id)).toEqual(['key_a', 'key_b', 'key_c']);
      });

      it('continues after a position, page by page: every key once, in order, equal shares by key id', async () => {
        const f = fixture();
        const ada = await userOf(f, 'ada@example.org');
        const seeded: Array<[string, number, number]> = [
          ['key_a', 9, 10], // 90 %
          ['key_b', 90, 100], // 90 %, the same share
          ['key_c', 99, 100],
          ['key_d', 8, 10],
          ['key_e', 200, 100],
          ['key_f', 85, 100],
        ];
        for (const [id, used, limit] of seeded) {
          await keyOf(f, ada, { id, licenseType: 'free', monthlyLimit: { source: 'override', limit } });
          await f.seedUsage(id, '2026-03', used);
        }
        const pages: string[][] = [];
        let after: { used: number; monthlyLimit: number; keyId: string } | undefined;
        for (;;) {
          const page = await f.directory.nearQuota({ period: '2026-03', tierLimits: TIER_LIMITS, atLeastPercent: 80, after, limit: 2 });
          if (page.length === 0) break;
          pages.push(page.map((u) => u.key.id));
          const last = page[page.length - 1];
          after = { used: last.used, monthlyLimit: last.monthlyLimit, keyId: last.key.id };
        }
        expect(pages).toEqual([
          ['key_e', 'key_c'],
          ['key_a', 'key_b'],
          ['key_f', 'key_d'],
        ]);
      });

      it('follows the tier limits it is given', async () => {
        const f = fixture();
        const ada = await userOf(f, 'ada@example.org');
        const key = await keyOf(f, ada, { licenseType: 'enterprise' });
        await f.seedUsage(key.id, '2026-03', 5);
        const limits = Object.fromEntries(LICENSE_TYPES.map((t) => [t, 5])) as Record<LicenseType, number>;
        await expect(f.directory.nearQuota({ period: '2026-03', tierLimits: limits, atLeastPercent: 80, limit: 20 })).resolves.toEqual([
          expect.objectContaining({ used: 5, monthlyLimit: 5 }),
        ]);
      });
    });
  });
}
