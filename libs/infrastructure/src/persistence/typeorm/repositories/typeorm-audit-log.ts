import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AuditEntry, AuditFilter, AuditLog } from '@svc/domain';
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

  /** On the indexes (at, id), (key_id, at, id), (action, at, id) and (actor_id, at, id): a page continues where the last one ended. */
  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    const query = this.records.createQueryBuilder('a');
    if (filter.keyId !== undefined) query.andWhere('a.key_id = :keyId', { keyId: filter.keyId });
    if (filter.action !== undefined) query.andWhere('a.action = :action', { action: filter.action });
    if (filter.actorId !== undefined) query.andWhere('a.actor_id = :actorId', { actorId: filter.actorId });
    if (filter.after !== undefined) {
      query.andWhere('(a.at, a.id) < (:afterAt, :afterId)', { afterAt: filter.after.at, afterId: filter.after.id });
    }
    const records = await query.orderBy('a.at', 'DESC').addOrderBy('a.id', 'DESC').limit(filter.limit).getMany();
    return records.map(AuditEntryMapper.toDomain);
  }
}
