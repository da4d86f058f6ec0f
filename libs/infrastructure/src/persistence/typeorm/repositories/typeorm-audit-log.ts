import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AuditEntry, AuditLog } from '@svc/domain';
import { Repository } from 'typeorm';
import { AuditEntryMapper } from '../mappers/audit-entry.mapper';
import { AuditEntryRecord } from '../records/audit-entry.record';

@Injectable()
export class TypeOrmAuditLog extends AuditLog {
  constructor(@InjectRepository(AuditEntryRecord) private readonly records: Repository<AuditEntryRecord>) {
    super();
  }

  async append(entry: AuditEntry): Promise<void> {
    await this.records.insert(AuditEntryMapper.toRecord(entry));
  }

  async list(filter: { keyId?: string; limit: number }): Promise<AuditEntry[]> {
    const records = await this.records.find({
      where: filter.keyId === undefined ? {} : { keyId: filter.keyId },
      order: { at: 'DESC', id: 'DESC' },
      take: filter.limit,
    });
    return records.map(AuditEntryMapper.toDomain);
  }
}
