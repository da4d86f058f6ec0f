import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { User, UserRepository } from '@svc/domain';
import { Repository } from 'typeorm';
import { UserMapper } from '../mappers/user.mapper';
import { UserRecord } from '../records/user.record';

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  constructor(@InjectRepository(UserRecord) private readonly records: Repository<UserRecord>) {
    super();
  }

  async findById(id: string): Promise<User | null> {
    const record = await this.records.findOneBy({ id });
    return record ? UserMapper.toDomain(record) : null;
  }

  async insert(user: User): Promise<void> {
    await this.records.insert(UserMapper.toRecord(user));
  }
}
