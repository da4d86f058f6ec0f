import { type User, emailSearchForm } from '@svc/domain';
import { UserRecord } from '../records/user.record';

export class UserMapper {
  static toDomain(record: UserRecord): User {
    return {
      id: record.id,
      email: record.email,
      name: record.name,
      organization: record.organization,
      createdAt: record.createdAt,
    };
  }

  static toRecord(user: User): UserRecord {
    return Object.assign(new UserRecord(), user, { emailLower: emailSearchForm(user.email) });
  }
}
