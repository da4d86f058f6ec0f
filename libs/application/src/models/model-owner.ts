import { type ModelDescription, UserNotFoundError, type UserRepository } from '@svc/domain';

/** A custom model's owner must be a user the service knows: USER_NOT_FOUND otherwise. */
export async function checkModelOwner(users: UserRepository, description: ModelDescription): Promise<void> {
  if (description.ownerUserId !== null && !(await users.findById(description.ownerUserId))) {
    throw new UserNotFoundError();
  }
}
