import { type Operator, OperatorRepository, type Role } from '@svc/domain';
import { T0, randomDigest, uniqueId } from '../factories/domain.factory';
import { type MakePersistence, type PersistenceFixture, useFixture } from './persistence-fixture';

const LATER = new Date(T0.getTime() + 60_000);
const LATEST = new Date(T0.getTime() + 120_000);

export function makeOperator(overrides: Partial<Operator> = {}): Operator {
  return {
    id: uniqueId('op'),
    name: 'Grace Hopper',
    email: null,
    role: 'viewer',
    createdAt: T0,
    lastUsedAt: null,
    disabledAt: null,
    ...overrides,
  };
}

/** Stores an operator with a token digest of its own; answers both. */
export async function seedOperator(
  f: Pick<PersistenceFixture, 'operators'>,
  overrides: Partial<Operator> = {},
): Promise<{ operator: Operator; digest: string }> {
  const operator = makeOperator(overrides);
  const digest = randomDigest();
  await f.operators.create({ operator, tokenDigest: digest });
  return { operator, digest };
}

/**
 * Operators on every adapter (CONTRACT 21): found by id and by their current
 * token's digest only, listed oldest first, changed with `disabled_at` stamped
 * once, and the last-owner rule held atomically: of changes that would each
 * remove an owner, racing, no more go through than leave one enabled owner.
 */
export function describeOperatorRepositoryContract(make: MakePersistence): void {
  describe(`${OperatorRepository.name} contract`, () => {
    const fixture = useFixture(make);
    const owner = (f: PersistenceFixture, name: string) => seedOperator(f, { name, role: 'owner' });

    it('stores an operator, found by id and by its token digest, and nothing for another digest or id', async () => {
      const f = fixture();
      const { operator, digest } = await seedOperator(f, { email: 'grace@example.org', role: 'support' });
      await expect(f.operators.findById(operator.id)).resolves.toEqual(operator);
      await expect(f.operators.findByTokenDigest(digest)).resolves.toEqual(operator);
      await expect(f.operators.findByTokenDigest(randomDigest())).resolves.toBeNull();
      await expect(f.operators.findById(uniqueId('op'))).resolves.toBeNull();
    });

    it('lists every operator oldest first (ties by id)', async () => {
      const f = fixture();
      const later = await seedOperator(f, { createdAt: LATER });
      const [a, b] = [uniqueId('op'), uniqueId('op')].sort();
      await seedOperator(f, { id: b });
      await seedOperator(f, { id: a });
      expect((await f.operators.list()).map((o) => o.id)).toEqual([a, b, later.operator.id]);
    });

    it('changes name, e-mail and role; disabling stamps disabled_at once, enabling clears it; null for no such operator', async () => {
      const f = fixture();
      const { operator } = await seedOperator(f);
      const changed = await f.operators.update(operator.id, { name: 'G. Hopper', email: 'g@example.org', role: 'admin' }, LATER, false);
      expect(changed).toEqual({ ...operator, name: 'G. Hopper', email: 'g@example.org', role: 'admin' });
      await expect(f.operators.update(operator.id, { disabled: true }, LATER, false)).resolves.toMatchObject({ disabledAt: LATER });
      await expect(f.operators.update(operator.id, { disabled: true }, LATEST, false)).resolves.toMatchObject({ disabledAt: LATER });
      await expect(f.operators.findById(operator.id)).resolves.toMatchObject({ role: 'admin', disabledAt: LATER });
      await expect(f.operators.update(operator.id, { disabled: false }, LATEST, false)).resolves.toMatchObject({ disabledAt: null });
      await expect(f.operators.update(uniqueId('op'), { name: 'nobody' }, LATER, false)).resolves.toBeNull();
    });

    it('keeps an owner: demoting or disabling the last enabled owner is refused and changes nothing; with another owner it goes through', async () => {
      const f = fixture();
      const first = await owner(f, 'First');
      await seedOperator(f, { role: 'owner', disabledAt: T0 }); // a disabled owner does not count
      await seedOperator(f, { role: 'admin' });
      for (const change of [{ role: 'admin' as Role }, { disabled: true }]) {
        await expect(f.operators.update(first.operator.id, change, LATER, true)).resolves.toBe('last_owner');
      }
      await expect(f.operators.findById(first.operator.id)).resolves.toEqual(first.operator);
      await owner(f, 'Second');
      await expect(f.operators.update(first.operator.id, { role: 'admin' }, LATER, true)).resolves.toMatchObject({ role: 'admin' });
    });

    it('of owners demoting each other at once, exactly one goes through and one enabled owner remains', async () => {
      const f = fixture();
      const owners = await Promise.all(['A', 'B', 'C', 'D'].map((name) => owner(f, name)));
      const results = await Promise.all(
        owners.map(({ operator }, i) =>
          f.operators.update(operator.id, i % 2 === 0 ? { role: 'support' } : { disabled: true }, LATER, true),
        ),
      );
      expect(results.filter((r) => r === 'last_owner')).toHaveLength(1);
      const enabledOwners = (await f.operators.list()).filter((o) => o.role === 'owner' && o.disabledAt === null);
      expect(enabledOwners).toHaveLength(1);
      expect(enabledOwners[0].id).toBe(owners[results.indexOf('last_owner')].operator.id);
    });

    it('replaces the token: the earlier digest finds no one at once, the new one finds the operator; false for no such operator', async () => {
      const f = fixture();
      const { operator, digest } = await seedOperator(f);
      const next = randomDigest();
      await expect(f.operators.replaceToken(operator.id, next)).resolves.toBe(true);
      await expect(f.operators.findByTokenDigest(digest)).resolves.toBeNull();
      await expect(f.operators.findByTokenDigest(next)).resolves.toEqual(operator);
      await expect(f.operators.replaceToken(uniqueId('op'), randomDigest())).resolves.toBe(false);
    });

    it('records the latest use only: an earlier one, written after, or at once beside it, never goes back', async () => {
      const f = fixture();
      const { operator } = await seedOperator(f);
      await f.operators.touch(operator.id, LATER);
      await f.operators.touch(operator.id, T0);
      await expect(f.operators.findById(operator.id)).resolves.toMatchObject({ lastUsedAt: LATER });
      await Promise.all([T0, LATEST, LATER, T0].map((at) => f.operators.touch(operator.id, at)));
      await expect(f.operators.findById(operator.id)).resolves.toMatchObject({ lastUsedAt: LATEST });
      await f.operators.touch(uniqueId('op'), LATEST); // no such operator: nothing, no error
    });

    it('says whether any operator is enabled', async () => {
      const f = fixture();
      await expect(f.operators.anyEnabled()).resolves.toBe(false);
      const { operator } = await seedOperator(f, { disabledAt: T0 });
      await expect(f.operators.anyEnabled()).resolves.toBe(false);
      await f.operators.update(operator.id, { disabled: false }, LATER, false);
      await expect(f.operators.anyEnabled()).resolves.toBe(true);
    });
  });
}
