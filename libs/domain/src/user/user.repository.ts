import { type User } from './user';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract insert(user: User): Promise<void>;
}
