import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { User, UserRepository } from '@svc/domain';
import { Repository } from 'typeorm';
import { UserMapper } from '../mappers/user.mapper';
import { UserRecord } from '../records/user.record';
import { SqlStatements } from '../sql-statements';

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  constructor(
    @InjectRepository(UserRecord) private readonly records: Repository<UserRecord>,
    private readonly statements: SqlStatements,
  ) {
    super();
  }

  async findById(id: string): Promise<User | null> {
    const record = await this.records.findOneBy({ id });
    return record ? UserMapper.toDomain(record) : null;
  }

  /** In its turn among the process's transactions (SqlStatements.inTurn), so that none takes it in. */
  async insert(user: User): Promise<void> {
    await this.statements.inTurn(() => this.records.insert(UserMapper.toRecord(user)));
  }
}
