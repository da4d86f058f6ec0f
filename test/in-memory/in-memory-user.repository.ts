import { type User, UserRepository } from '@svc/domain';

/** Users in a map, for use-case tests only. */
export class InMemoryUserRepository extends UserRepository {
  private readonly byId = new Map<string, User>();

  async findById(id: string): Promise<User | null> {
    const user = this.byId.get(id);
    return user ? copyOf(user) : null;
  }

  async insert(user: User): Promise<void> {
    if (this.byId.has(user.id)) throw new Error(`duplicate user id ${user.id}`);
    this.byId.set(user.id, copyOf(user));
  }

  /** Everything stored, for tests that check what was persisted. */
  all(): User[] {
    return [...this.byId.values()].map(copyOf);
  }
}

function copyOf(user: User): User {
  return { ...user, createdAt: new Date(user.createdAt.getTime()) };
}
