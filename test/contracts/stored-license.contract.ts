import { type ApiKey, type LicenseToRefresh, NO_DEVICE, type StoredLicense, StoredLicenseRepository } from '@svc/domain';
import { T0, makeStoredLicense, randomDigest, revokeAlone, NO_RECORDS } from '../factories/domain.factory';
import { rotationOf } from './key-rotation.contract';
import { type MakePersistence, type PersistenceFixture, seedKey, useFixture } from './persistence-fixture';

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** What the refresh job's reads answer for a stored license. */
const toRefresh = (key: ApiKey, device: string, stored: StoredLicense): LicenseToRefresh => ({ key, device, stored });

/** The job's work in one order, where the port promises none. */
const sorted = (work: readonly LicenseToRefresh[]) =>
  [...work].sort((a, b) => a.key.id.localeCompare(b.key.id) || a.device.localeCompare(b.device));

/**
 * The behaviour every StoredLicenseRepository adapter must share: a key keeps one license per device
 * slot (NO_DEVICE, and each device's digest), `replace` is a compare-and-set on the stored token with
 * one winner, `forget` and `forgetDevice` remove exactly the slots they name (the latter across every
 * key of a license), and the refresh job's reads (`due`, `signedByOther`, `keysAfter`, `claim`) find
 * exactly the licenses and keys they describe, with the keys as stored.
 */
export function describeStoredLicenseRepositoryContract(make: MakePersistence): void {
  describe(`${StoredLicenseRepository.name} contract`, () => {
    const fixture = useFixture(make);

    /** What the key's slots hold now, NO_DEVICE first. */
    const slotsOf = (f: PersistenceFixture, keyId: string, devices: readonly string[]) =>
      Promise.all([NO_DEVICE, ...devices].map((device) => f.storedLicenses.find(keyId, device)));

    describe('put and find', () => {
      it('keeps a license per device slot: the one naming no device apart from each named one', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const other = await seedKey(f);
        const device = randomDigest();
        const plain = makeStoredLicense({ signedAt: at(1), refreshAt: at(43_201) });
        const named = makeStoredLicense({ kid: 'kid-2', signedAt: at(2), refreshAt: at(43_202) });

        await f.storedLicenses.put(key.id, plain);
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(plain);
        await expect(f.storedLicenses.find(key.id, device)).resolves.toBeNull();

        await f.storedLicenses.put(key.id, named, device);
        await expect(f.storedLicenses.find(key.id, NO_DEVICE)).resolves.toEqual(plain);
        await expect(f.storedLicenses.find(key.id, device)).resolves.toEqual(named);
        await expect(f.storedLicenses.find(key.id, randomDigest())).resolves.toBeNull();
        // the exact digest only: no other case, no padding
        await expect(f.storedLicenses.find(key.id, device.toUpperCase())).resolves.toBeNull();
        await expect(f.storedLicenses.find(key.id, `${device} `)).resolves.toBeNull();
        await expect(f.storedLicenses.find(other.id)).resolves.toBeNull();
        await expect(f.storedLicenses.find(other.id, device)).resolves.toBeNull();
      });

      it('replaces whatever the slot held, leaving the other slots', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const device = randomDigest();
        const named = makeStoredLicense();
        await f.storedLicenses.put(key.id, makeStoredLicense());
        await f.storedLicenses.put(key.id, named, device);
        const next = makeStoredLicense({ kid: 'kid-2', signedAt: at(60), refreshAt: at(120) });

        await f.storedLicenses.put(key.id, next);

        await expect(slotsOf(f, key.id, [device])).resolves.toEqual([next, named]);
      });
    });

    describe('replace', () => {
      it('stores when the slot holds the expected token (null: none), and changes nothing otherwise', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const [first, second, third] = [
          makeStoredLicense(),
          makeStoredLicense({ signedAt: at(10) }),
          makeStoredLicense({ signedAt: at(20) }),
        ];

        await expect(f.storedLicenses.replace(key.id, first.token, second)).resolves.toBe(false);
        await expect(f.storedLicenses.find(key.id)).resolves.toBeNull();
        await expect(f.storedLicenses.replace(key.id, null, first)).resolves.toBe(true);
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(first);

        await expect(f.storedLicenses.replace(key.id, null, second)).resolves.toBe(false);
        await expect(f.storedLicenses.replace(key.id, 'not-the-stored-token', second)).resolves.toBe(false);
        // the exact token only: no other case, no padding
        await expect(f.storedLicenses.replace(key.id, first.token.toUpperCase(), second)).resolves.toBe(false);
        await expect(f.storedLicenses.replace(key.id, `${first.token} `, second)).resolves.toBe(false);
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(first);

        await expect(f.storedLicenses.replace(key.id, first.token, second)).resolves.toBe(true);
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(second);
        // the token read before the last store is stale now
        await expect(f.storedLicenses.replace(key.id, first.token, third)).resolves.toBe(false);
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(second);
      });

      it("compares a device's slot with its own token only", async () => {
        const f = fixture();
        const key = await seedKey(f);
        const device = randomDigest();
        const plain = makeStoredLicense();
        const named = makeStoredLicense();
        await f.storedLicenses.put(key.id, plain);

        // the slot naming no device holds one: the device's slot still holds none
        await expect(f.storedLicenses.replace(key.id, plain.token, named, device)).resolves.toBe(false);
        await expect(f.storedLicenses.replace(key.id, null, named, device)).resolves.toBe(true);
        const renamed = makeStoredLicense();
        await expect(f.storedLicenses.replace(key.id, named.token, renamed, device)).resolves.toBe(true);

        await expect(slotsOf(f, key.id, [device])).resolves.toEqual([plain, renamed]);
      });

      it('of replacements racing from the same expected token, exactly one stores', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const fresh = Array.from({ length: 6 }, (_, i) => makeStoredLicense({ signedAt: at(i) }));
        const firsts = await Promise.all(fresh.map((next) => f.storedLicenses.replace(key.id, null, next)));
        expect(firsts.filter(Boolean)).toHaveLength(1);
        const kept = fresh[firsts.indexOf(true)];
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(kept);

        const resigned = Array.from({ length: 6 }, (_, i) => makeStoredLicense({ signedAt: at(100 + i) }));
        const seconds = await Promise.all(resigned.map((next) => f.storedLicenses.replace(key.id, kept.token, next)));
        expect(seconds.filter(Boolean)).toHaveLength(1);
        await expect(f.storedLicenses.find(key.id)).resolves.toEqual(resigned[seconds.indexOf(true)]);
      });
    });

    describe('forget and forgetDevice', () => {
      it("forgets one slot of the key, or every slot of it when no device is named, never another key's", async () => {
        const f = fixture();
        const key = await seedKey(f);
        const other = await seedKey(f);
        const [a, b] = [randomDigest(), randomDigest()];
        const held = { plain: makeStoredLicense(), a: makeStoredLicense(), b: makeStoredLicense() };
        await f.storedLicenses.put(key.id, held.plain);
        await f.storedLicenses.put(key.id, held.a, a);
        await f.storedLicenses.put(key.id, held.b, b);
        const others = [makeStoredLicense(), makeStoredLicense()];
        await f.storedLicenses.put(other.id, others[0]);
        await f.storedLicenses.put(other.id, others[1], a);

        await f.storedLicenses.forget(key.id, a);
        await expect(slotsOf(f, key.id, [a, b])).resolves.toEqual([held.plain, null, held.b]);
        await f.storedLicenses.forget(key.id, NO_DEVICE);
        await expect(slotsOf(f, key.id, [a, b])).resolves.toEqual([null, null, held.b]);

        await f.storedLicenses.put(key.id, held.plain);
        await f.storedLicenses.put(key.id, held.a, a);
        await f.storedLicenses.forget(key.id);
        await expect(slotsOf(f, key.id, [a, b])).resolves.toEqual([null, null, null]);
        await expect(slotsOf(f, other.id, [a])).resolves.toEqual(others);
      });

      it("forgets a device's licenses on every key of its license (a rotated key's too), and nothing else", async () => {
        const f = fixture();
        const key = await seedKey(f);
        const rotation = rotationOf(key, 3600);
        await expect(f.keys.rotate(rotation, NO_RECORDS)).resolves.toBe(true);
        const successor = rotation.successor;
        const stranger = await seedKey(f);
        const [gone, kept] = [randomDigest(), randomDigest()];
        const slots = new Map<string, StoredLicense[]>();
        for (const keyId of [key.id, successor.id, stranger.id]) {
          const three = [makeStoredLicense(), makeStoredLicense(), makeStoredLicense()];
          slots.set(keyId, three);
          await f.storedLicenses.put(keyId, three[0]);
          await f.storedLicenses.put(keyId, three[1], gone);
          await f.storedLicenses.put(keyId, three[2], kept);
        }

        await f.storedLicenses.forgetDevice(key.licenseId, gone);

        for (const keyId of [key.id, successor.id]) {
          const [plain, , named] = slots.get(keyId)!;
          await expect(slotsOf(f, keyId, [gone, kept])).resolves.toEqual([plain, null, named]);
        }
        await expect(slotsOf(f, stranger.id, [gone, kept])).resolves.toEqual(slots.get(stranger.id));
      });
    });

    describe('the refresh job', () => {
      it('finds the licenses due at `at` (refreshAt at or before it), the earliest first, up to the limit, with their keys', async () => {
        const f = fixture();
        const [one, two, three] = [await seedKey(f), await seedKey(f, { licenseType: 'commercial' }), await seedKey(f)];
        const device = randomDigest();
        const s = {
          one: makeStoredLicense({ refreshAt: at(30) }),
          oneNamed: makeStoredLicense({ refreshAt: at(15) }),
          two: makeStoredLicense({ refreshAt: at(10) }),
          three: makeStoredLicense({ refreshAt: at(21) }),
        };
        await f.storedLicenses.put(one.id, s.one);
        await f.storedLicenses.put(one.id, s.oneNamed, device);
        await f.storedLicenses.put(two.id, s.two);
        await f.storedLicenses.put(three.id, s.three);

        await expect(f.storedLicenses.due(at(30), 10)).resolves.toEqual([
          toRefresh(two, NO_DEVICE, s.two),
          toRefresh(one, device, s.oneNamed),
          toRefresh(three, NO_DEVICE, s.three),
          toRefresh(one, NO_DEVICE, s.one),
        ]);
        await expect(f.storedLicenses.due(at(20), 10)).resolves.toEqual([
          toRefresh(two, NO_DEVICE, s.two),
          toRefresh(one, device, s.oneNamed),
        ]);
        expect((await f.storedLicenses.due(at(30), 2)).map((w) => w.stored)).toEqual([s.two, s.oneNamed]);
        await expect(f.storedLicenses.due(at(9), 10)).resolves.toEqual([]);
      });

      it('answers the keys as they are now: revoked or rotated since their license was stored', async () => {
        const f = fixture();
        const revoked = await seedKey(f);
        const rotated = await seedKey(f);
        await f.storedLicenses.put(revoked.id, makeStoredLicense({ refreshAt: at(1) }));
        await f.storedLicenses.put(rotated.id, makeStoredLicense({ refreshAt: at(2) }));
        await revokeAlone(f.keys, revoked.id, at(3));
        const rotation = rotationOf(rotated, 3600);
        await f.keys.rotate(rotation, NO_RECORDS);

        const [first, second] = await f.storedLicenses.due(at(2), 10);

        expect(first.key.revokedAt).toEqual(at(3));
        expect(first.key.props).toEqual((await f.keys.findById(revoked.id))?.props);
        expect(second.key.rotatedTo).toBe(rotation.successor.id);
        expect(second.key.props).toEqual((await f.keys.findById(rotated.id))?.props);
      });

      it('finds the licenses signed by a key other than `kid`, up to the limit', async () => {
        const f = fixture();
        const [one, two, three] = [await seedKey(f), await seedKey(f), await seedKey(f)];
        const device = randomDigest();
        const s = {
          one: makeStoredLicense({ kid: 'kid-1' }),
          two: makeStoredLicense({ kid: 'kid-2' }),
          twoNamed: makeStoredLicense({ kid: 'kid-2' }),
          three: makeStoredLicense({ kid: 'kid-0' }),
        };
        await f.storedLicenses.put(one.id, s.one);
        await f.storedLicenses.put(two.id, s.two);
        await f.storedLicenses.put(two.id, s.twoNamed, device);
        await f.storedLicenses.put(three.id, s.three);

        expect(sorted(await f.storedLicenses.signedByOther('kid-1', 10))).toEqual(
          sorted([toRefresh(two, NO_DEVICE, s.two), toRefresh(two, device, s.twoNamed), toRefresh(three, NO_DEVICE, s.three)]),
        );
        expect(sorted(await f.storedLicenses.signedByOther('kid-2', 10))).toEqual(
          sorted([toRefresh(one, NO_DEVICE, s.one), toRefresh(three, NO_DEVICE, s.three)]),
        );
        expect(await f.storedLicenses.signedByOther('kid-9', 10)).toHaveLength(4);
        const limited = await f.storedLicenses.signedByOther('kid-1', 2);
        expect(limited).toHaveLength(2);
        expect(limited.every((w) => w.stored?.kid !== 'kid-1')).toBe(true);
        await f.storedLicenses.forget(two.id);
        await f.storedLicenses.forget(three.id);
        await expect(f.storedLicenses.signedByOther('kid-1', 10)).resolves.toEqual([]);
      });

      it('walks every key in id order after a position, each with whether a license naming no device is stored', async () => {
        const f = fixture();
        const a = await seedKey(f, { id: 'key_a' });
        const b = await seedKey(f, { id: 'key_b' });
        const c = await seedKey(f, { id: 'key_c' });
        const d = await seedKey(f, { id: 'key_d' });
        await revokeAlone(f.keys, b.id, at(1));
        await f.storedLicenses.put(a.id, makeStoredLicense());
        await f.storedLicenses.put(b.id, makeStoredLicense());
        // a license naming a device only: the key still has none naming no device
        await f.storedLicenses.put(c.id, makeStoredLicense(), randomDigest());
        const walked = (window: Array<{ key: ApiKey; hasLicense: boolean }>) => window.map(({ key, hasLicense }) => [key.id, hasLicense]);

        expect(walked(await f.storedLicenses.keysAfter('', 10))).toEqual([
          ['key_a', true],
          ['key_b', true],
          ['key_c', false],
          ['key_d', false],
        ]);
        expect(walked(await f.storedLicenses.keysAfter('key_a', 2))).toEqual([
          ['key_b', true],
          ['key_c', false],
        ]);
        expect(walked(await f.storedLicenses.keysAfter('key_c', 2))).toEqual([['key_d', false]]);
        await expect(f.storedLicenses.keysAfter('key_d', 10)).resolves.toEqual([]);
        const [revoked] = await f.storedLicenses.keysAfter('key_a', 1);
        expect(revoked.key.props).toEqual((await f.keys.findById(b.id))?.props);
        expect(revoked.key.revokedAt).toEqual(at(1));
        expect((await f.storedLicenses.keysAfter('key_c', 1))[0].key.props).toEqual(d.props);
      });

      it('claims a license once for the refreshAt it was read at, moving it to `until`', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const device = randomDigest();
        const plain = makeStoredLicense({ refreshAt: at(10) });
        const named = makeStoredLicense({ refreshAt: at(10) });
        await f.storedLicenses.put(key.id, plain);
        await f.storedLicenses.put(key.id, named, device);

        await expect(f.storedLicenses.claim(key.id, NO_DEVICE, at(9), at(100))).resolves.toBe(false);
        await expect(f.storedLicenses.claim(key.id, NO_DEVICE, at(10), at(100))).resolves.toBe(true);
        await expect(f.storedLicenses.claim(key.id, NO_DEVICE, at(10), at(200))).resolves.toBe(false);
        await expect(slotsOf(f, key.id, [device])).resolves.toEqual([{ ...plain, refreshAt: at(100) }, named]);

        // the device's slot is claimed apart, and a slot holding nothing never is
        await expect(f.storedLicenses.claim(key.id, device, at(10), at(300))).resolves.toBe(true);
        await expect(f.storedLicenses.find(key.id, device)).resolves.toEqual({ ...named, refreshAt: at(300) });
        await expect(f.storedLicenses.claim(key.id, randomDigest(), at(10), at(300))).resolves.toBe(false);
        await expect(f.storedLicenses.claim('key_unknown', NO_DEVICE, at(10), at(300))).resolves.toBe(false);
        // claimed again from where the last claim left it
        await expect(f.storedLicenses.claim(key.id, NO_DEVICE, at(100), at(400))).resolves.toBe(true);
        expect((await f.storedLicenses.find(key.id))?.refreshAt).toEqual(at(400));
      });

      it('of claims racing for the same refreshAt, exactly one wins', async () => {
        const f = fixture();
        const key = await seedKey(f);
        await f.storedLicenses.put(key.id, makeStoredLicense({ refreshAt: at(10) }));

        const claims = await Promise.all(
          Array.from({ length: 6 }, (_, i) => f.storedLicenses.claim(key.id, NO_DEVICE, at(10), at(100 + i))),
        );

        expect(claims.filter(Boolean)).toHaveLength(1);
        expect((await f.storedLicenses.find(key.id))?.refreshAt).toEqual(at(100 + claims.indexOf(true)));
      });
    });
  });
}
