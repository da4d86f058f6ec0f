import { type Operator, type Role } from '@svc/domain';
import { OperatorRecord } from '../records/operator.record';

export class OperatorMapper {
  static toDomain(record: OperatorRecord): Operator {
    return {
      id: record.id,
      name: record.name,
      email: record.email,
      role: record.role as Role,
      createdAt: record.createdAt,
      lastUsedAt: record.lastUsedAt,
      disabledAt: record.disabledAt,
    };
  }

  static toRecord(operator: Operator, tokenDigest: string): OperatorRecord {
    return Object.assign(new OperatorRecord(), { ...operator, tokenDigest });
  }
}
