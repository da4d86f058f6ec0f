import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ApiKey, ApiKeyRepository } from '@svc/domain';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { ApiKeyRecord } from '../records/api-key.record';

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(@InjectRepository(ApiKeyRecord) private readonly records: Repository<ApiKeyRecord>) {
    super();
  }

  async findByDigest(digest: string): Promise<ApiKey | null> {
    const record = await this.records.findOneBy({ digest });
    return record ? ApiKeyMapper.toDomain(record) : null;
  }

  async findById(id: string): Promise<ApiKey | null> {
    const record = await this.records.findOneBy({ id });
    return record ? ApiKeyMapper.toDomain(record) : null;
  }

  async insert(key: ApiKey): Promise<void> {
    await this.records.insert(ApiKeyMapper.toRecord(key));
  }

  async updateTerms(key: ApiKey): Promise<boolean> {
    const result = await this.records.update(
      { id: key.id, revokedAt: IsNull() },
      {
        licenseType: key.licenseType,
        expiresAt: key.expiresAt,
        ...ApiKeyMapper.limitColumns(key.props.monthlyLimit),
      },
    );
    return (result.affected ?? 0) === 1;
  }

  async markRevoked(id: string, at: Date): Promise<boolean> {
    const result = await this.records.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) === 1;
  }
}
