import { type ApiKey, ApiKeyRepository, type KeyRotation, KeyRotationPolicy } from '@svc/domain';
import { DAY_MS, T0, makeAnalyticsEvent, randomDigest, uniqueId, revokeAlone, NO_RECORDS } from '../factories/domain.factory';
import { type MakePersistence, type PersistenceFixture, seedKey, useFixture } from './persistence-fixture';

const MARCH = '2026-03';
const policy = new KeyRotationPolicy(86_400, 90);
const LATER = new Date(T0.getTime() + 10 * DAY_MS);

/** A rotation of `key` at LATER with a fresh successor identity. */
export function rotationOf(key: ApiKey, graceSeconds?: number, at: Date = LATER): KeyRotation {
  return policy.rotationOf(key, { id: uniqueId('key'), digest: randomDigest(), displayPrefix: 'svc_live_9f8' }, at, graceSeconds);
}

/**
 * Key rotation on every adapter (CONTRACT 16): ApiKeyRepository.rotate is
 * one atomic step with exactly one winner, findByLicense lists the chain, and
 * the license's keys draw on one counter (usage, key context, breakdown).
 */
export function describeKeyRotationContract(make: MakePersistence): void {
  describe(`${ApiKeyRepository.name} rotation contract`, () => {
    const fixture = useFixture(make);

    it('stores the successor with the license and marks the predecessor rotated, its expiry lowered to the grace', async () => {
      const f = fixture();
      const old = await seedKey(f, { monthlyLimit: { source: 'override', limit: 77 }, licenseType: 'commercial', environment: 'test' });
      const rotation = rotationOf(old, 3600);

      await expect(f.keys.rotate(rotation, NO_RECORDS)).resolves.toBe(true);

      const successor = await f.keys.findByDigest(rotation.successor.props.digest);
      expect(successor?.props).toEqual({
        ...old.props,
        id: rotation.successor.id,
        digest: rotation.successor.props.digest,
        displayPrefix: 'svc_live_9f8',
        createdAt: LATER,
        licenseId: old.id,
        rotatedFrom: old.id,
        rotatedTo: null,
      });
      expect((await f.keys.findById(old.id))?.props).toEqual({
        ...old.props,
        rotatedTo: rotation.successor.id,
        expiresAt: new Date(LATER.getTime() + 3_600_000),
      });
      expect((await f.keys.findByLicense(old.id)).map((k) => k.id)).toEqual([old.id, rotation.successor.id]);
    });

    it('revokes the predecessor at once for a grace of 0, leaving its expiry', async () => {
      const f = fixture();
      const old = await seedKey(f);
      const rotation = rotationOf(old, 0);
      await expect(f.keys.rotate(rotation, NO_RECORDS)).resolves.toBe(true);
      expect((await f.keys.findById(old.id))?.props).toMatchObject({
        revokedAt: LATER,
        expiresAt: old.expiresAt,
        rotatedTo: rotation.successor.id,
      });
    });

    it('refuses a key already rotated, or revoked, and stores nothing', async () => {
      const f = fixture();
      const rotated = await seedKey(f);
      await expect(f.keys.rotate(rotationOf(rotated), NO_RECORDS)).resolves.toBe(true);
      const again = rotationOf(rotated);
      await expect(f.keys.rotate(again, NO_RECORDS)).resolves.toBe(false);
      await expect(f.keys.findById(again.successor.id)).resolves.toBeNull();

      const revoked = await seedKey(f);
      await revokeAlone(f.keys, revoked.id, T0);
      const refused = rotationOf(revoked);
      await expect(f.keys.rotate(refused, NO_RECORDS)).resolves.toBe(false);
      await expect(f.keys.findById(refused.successor.id)).resolves.toBeNull();
      expect((await f.keys.findById(revoked.id))?.rotatedTo).toBeNull();
    });

    it('of concurrent rotations of one key, exactly one wins and one successor is stored', async () => {
      const f = fixture();
      const old = await seedKey(f);
      const rotations = Array.from({ length: 12 }, () => rotationOf(old));
      const results = await Promise.all(rotations.map((r) => f.keys.rotate(r, NO_RECORDS)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const license = await f.keys.findByLicense(old.id);
      expect(license).toHaveLength(2);
      expect(license[1].id).toBe(rotations[results.indexOf(true)].successor.id);
    });

    it('chains: the successor rotates again within the same license', async () => {
      const f = fixture();
      const first = await seedKey(f);
      const second = rotationOf(first);
      await f.keys.rotate(second, NO_RECORDS);
      const third = rotationOf(second.successor, undefined, new Date(LATER.getTime() + DAY_MS));
      await expect(f.keys.rotate(third, NO_RECORDS)).resolves.toBe(true);
      expect((await f.keys.findByLicense(first.id)).map((k) => [k.id, k.props.rotatedFrom, k.rotatedTo])).toEqual([
        [first.id, null, second.successor.id],
        [second.successor.id, first.id, third.successor.id],
        [third.successor.id, second.successor.id, null],
      ]);
      await expect(f.keys.findByLicense(uniqueId('key'))).resolves.toEqual([]);
    });

    it("counts the license's keys on one counter: usage, key context and breakdown", async () => {
      const f: PersistenceFixture = fixture();
      const old = await seedKey(f);
      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: old.id, period: MARCH }), 1, 5);
      await f.events.appendConsuming(makeAnalyticsEvent({ keyId: old.id, period: MARCH }), 1, 5);
      const rotation = rotationOf(old);
      await f.keys.rotate(rotation, NO_RECORDS);
      const next = rotation.successor;
      const viaNew = (n: number) =>
        f.events.appendConsuming(makeAnalyticsEvent({ keyId: next.id, licenseId: next.licenseId, period: MARCH }), n, 5);

      await expect(viaNew(2)).resolves.toBe(4);
      await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: old.id, period: MARCH }), 1, 5)).resolves.toBe(5);
      await expect(viaNew(1)).resolves.toBeNull();

      await expect(f.usage.usedIn(old.id, MARCH)).resolves.toBe(5);
      await expect(f.contexts.findByDigest(next.props.digest, MARCH)).resolves.toMatchObject({ used: 5 });
      await expect(f.contexts.findByDigest(old.props.digest, MARCH)).resolves.toMatchObject({ used: 5 });
      const breakdown = await f.events.breakdown(old.id, MARCH);
      expect(breakdown.byKey).toEqual({ [old.id]: 3, [next.id]: 1 });
      expect(breakdown.byEventType.inference).toBe(4);
    });
  });
}
