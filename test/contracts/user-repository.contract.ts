import { UserRepository } from '@svc/domain';
import { makeUser } from '../factories/domain.factory';
import { type MakePersistence, useFixture } from './persistence-fixture';
import { expectRefused } from './refused';

/** The behaviour every UserRepository adapter must share. */
export function describeUserRepositoryContract(make: MakePersistence): void {
  describe(`${UserRepository.name} contract`, () => {
    const fixture = useFixture(make);

    it.each([
      ['with name and organization', {}],
      ['without name and organization', { name: null, organization: null }],
    ])('round-trips a user %s', async (_, overrides) => {
      const f = fixture();
      const user = makeUser({ createdAt: new Date('2026-02-28T23:59:59.999Z'), ...overrides });
      await f.users.insert(user);
      await expect(f.users.findById(user.id)).resolves.toEqual(user);
    });

    it('answers null for an unknown id', async () => {
      const f = fixture();
      await f.users.insert(makeUser());
      await expect(f.users.findById('usr_unknown')).resolves.toBeNull();
    });

    it('refuses a second user with the same id', async () => {
      const f = fixture();
      const user = makeUser();
      await f.users.insert(user);
      await expectRefused(f.users.insert({ ...user, email: 'other@example.org' }));
      expect((await f.users.findById(user.id))?.email).toBe(user.email);
    });
  });
}
