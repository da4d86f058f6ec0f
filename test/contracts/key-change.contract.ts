import { type ApiKey, ApiKeyRepository, type AuditEntry, type KeyChangeRecords } from '@svc/domain';
import { DAY_MS, NO_RECORDS, T0, makeAuditEntry, revokeAlone } from '../factories/domain.factory';
import { rotationOf } from './key-rotation.contract';
import { type MakePersistence, type PersistenceFixture, seedKey, useFixture } from './persistence-fixture';
import { expectRefused } from './refused';

const LATER = new Date(T0.getTime() + 20 * DAY_MS);

/** An entry on `keyId`, as the use cases write them with a key change. */
const entryOn = (keyId: string, overrides: Partial<AuditEntry> = {}): AuditEntry =>
  makeAuditEntry({ keyId, at: LATER, action: 'key.revoked', details: { by: 'operator' }, ...overrides });

/** A key rotated twice: the first two keys in their grace, the third the license's current key. */
async function chainOfThree(f: PersistenceFixture): Promise<[ApiKey, ApiKey, ApiKey]> {
  const first = await seedKey(f);
  const second = rotationOf(first);
  await f.keys.rotate(second, NO_RECORDS);
  const third = rotationOf(second.successor, undefined, new Date(T0.getTime() + 11 * DAY_MS));
  await f.keys.rotate(third, NO_RECORDS);
  return [first, second.successor, third.successor];
}

/**
 * Key changes that cannot half-happen (CONTRACT 16), on every
 * adapter: a rotation or a revocation and the records written with it
 * (its audit entries) commit together or not at all. A write that fails
 * inside (here the audit log's unique id, a real constraint) leaves the keys
 * as they were and no entry of the change behind.
 */
export function describeKeyChangeContract(make: MakePersistence): void {
  describe(`${ApiKeyRepository.name} key changes with their records`, () => {
    const fixture = useFixture(make);

    describe('rotate', () => {
      it('writes the records with the rotation, and none when it is refused', async () => {
        const f = fixture();
        const old = await seedKey(f);
        const rotation = rotationOf(old);
        const records: KeyChangeRecords = { audit: [entryOn(old.id, { action: 'key.rotated' }), entryOn(rotation.successor.id)] };

        await expect(f.keys.rotate(rotation, records)).resolves.toBe(true);
        await expect(f.keys.rotate(rotationOf(old), { audit: [entryOn(old.id, { reason: 'refused' })] })).resolves.toBe(false);

        expect(await f.audit.list({ limit: 10 })).toEqual([...records.audit].reverse());
      });

      it('keeps nothing when writing a record fails: the predecessor not rotated, no successor, no entry', async () => {
        const f = fixture();
        const old = await seedKey(f);
        const taken = entryOn(old.id, { action: 'key.issued', at: T0 });
        await f.audit.append(taken);
        const rotation = rotationOf(old, 0);

        await expectRefused(f.keys.rotate(rotation, { audit: [entryOn(old.id, { action: 'key.rotated' }), { ...taken, at: LATER }] }));

        expect((await f.keys.findById(old.id))?.props).toEqual(old.props);
        await expect(f.keys.findById(rotation.successor.id)).resolves.toBeNull();
        await expect(f.keys.findByDigest(rotation.successor.props.digest)).resolves.toBeNull();
        expect(await f.audit.list({ limit: 10 })).toEqual([taken]);
        // and the key rotates afterwards as if nothing had been tried
        await expect(f.keys.rotate(rotationOf(old), NO_RECORDS)).resolves.toBe(true);
      });
    });

    describe('revoke', () => {
      it('revokes once: true, then false, and the first time and its records stay', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const first = new Date(T0.getTime() + 1000);

        await expect(
          f.keys.revoke({ keyId: key.id, at: first, predecessorsInGrace: [] }, (id) => ({ audit: [entryOn(id)] })),
        ).resolves.toBe(true);
        const later = { keyId: key.id, at: new Date(T0.getTime() + 2000), predecessorsInGrace: [] };
        await expect(f.keys.revoke(later, (id) => ({ audit: [entryOn(id, { reason: 'late' })] }))).resolves.toBe(false);

        expect((await f.keys.findById(key.id))?.revokedAt).toEqual(first);
        expect((await f.audit.list({ limit: 10 })).map((e) => [e.keyId, e.reason])).toEqual([[key.id, null]]);
      });

      it("revokes a license's current key with its predecessors in grace, each with its records", async () => {
        const f = fixture();
        const [first, second, third] = await chainOfThree(f);
        const asked: string[] = [];
        const revocation = { keyId: third.id, at: LATER, predecessorsInGrace: [first.id, second.id] };

        await expect(f.keys.revoke(revocation, (id) => (asked.push(id), { audit: [entryOn(id)] }))).resolves.toBe(true);

        expect(asked).toEqual([third.id, first.id, second.id]);
        for (const key of [first, second, third]) expect((await f.keys.findById(key.id))?.revokedAt).toEqual(LATER);
        expect((await f.audit.list({ limit: 10 })).map((e) => e.keyId)).toEqual([second.id, first.id, third.id]);
      });

      it('leaves a predecessor already revoked as it was, and writes nothing for it', async () => {
        const f = fixture();
        const [first, second, third] = await chainOfThree(f);
        await revokeAlone(f.keys, first.id, T0);

        const revocation = { keyId: third.id, at: LATER, predecessorsInGrace: [first.id, second.id] };
        await expect(f.keys.revoke(revocation, (id) => ({ audit: [entryOn(id)] }))).resolves.toBe(true);

        expect((await f.keys.findById(first.id))?.revokedAt).toEqual(T0);
        expect((await f.keys.findById(second.id))?.revokedAt).toEqual(LATER);
        expect((await f.audit.list({ limit: 10 })).map((e) => e.keyId)).toEqual([second.id, third.id]);
      });

      it('revokes the key alone when it was rotated meanwhile: it is no longer the current key', async () => {
        const f = fixture();
        const [first, second] = await chainOfThree(f);

        // planned while `second` was current; `third` replaced it since
        const revocation = { keyId: second.id, at: LATER, predecessorsInGrace: [first.id] };
        await expect(f.keys.revoke(revocation, (id) => ({ audit: [entryOn(id)] }))).resolves.toBe(true);

        expect((await f.keys.findById(second.id))?.revokedAt).toEqual(LATER);
        expect((await f.keys.findById(first.id))?.revokedAt).toBeNull();
        expect((await f.audit.list({ limit: 10 })).map((e) => e.keyId)).toEqual([second.id]);
      });

      it.each([
        ['the key', 0],
        ['a predecessor (the last write)', 2],
      ])('keeps nothing when writing the records of %s fails: no key revoked, no entry', async (_, failing) => {
        const f = fixture();
        const [first, second, third] = await chainOfThree(f);
        const taken = entryOn(third.id, { action: 'key.issued', at: T0 });
        await f.audit.append(taken);
        const order = [third.id, first.id, second.id];
        const revocation = { keyId: third.id, at: LATER, predecessorsInGrace: [first.id, second.id] };

        await expectRefused(
          f.keys.revoke(revocation, (id) => ({ audit: [id === order[failing] ? { ...taken, keyId: id, at: LATER } : entryOn(id)] })),
        );

        for (const key of [first, second, third]) expect((await f.keys.findById(key.id))?.revokedAt).toBeNull();
        expect(await f.audit.list({ limit: 10 })).toEqual([taken]);
        // and the revocation succeeds afterwards as if nothing had been tried
        await expect(f.keys.revoke(revocation, (id) => ({ audit: [entryOn(id)] }))).resolves.toBe(true);
        for (const key of [first, second, third]) expect((await f.keys.findById(key.id))?.revokedAt).toEqual(LATER);
      });

      it('of 20 concurrent revocations exactly one wins, and only its records are written', async () => {
        const f = fixture();
        const [first, second, third] = await chainOfThree(f);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            f.keys.revoke({ keyId: third.id, at: new Date(LATER.getTime() + i), predecessorsInGrace: [first.id, second.id] }, (id) => ({
              audit: [entryOn(id, { reason: `attempt ${i}` })],
            })),
          ),
        );

        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        const entries = await f.audit.list({ limit: 100 });
        expect(entries).toHaveLength(3);
        expect(new Set(entries.map((e) => e.reason))).toEqual(new Set([`attempt ${winner}`]));
        expect((await f.keys.findById(first.id))?.revokedAt).toEqual(new Date(LATER.getTime() + winner));
      });

      it('answers false for an unknown key, writing nothing', async () => {
        const f = fixture();
        await expect(
          f.keys.revoke({ keyId: 'key_unknown', at: T0, predecessorsInGrace: [] }, (id) => ({ audit: [entryOn(id)] })),
        ).resolves.toBe(false);
        await expect(f.audit.list({ limit: 10 })).resolves.toEqual([]);
      });
    });
  });
}
