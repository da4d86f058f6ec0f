import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AuditEntry, AuditFilter, AuditLog } from '@svc/domain';
import { Repository } from 'typeorm';
import { AuditEntryMapper } from '../mappers/audit-entry.mapper';
import { AuditEntryRecord } from '../records/audit-entry.record';
import { SqlStatements } from '../sql-statements';

@Injectable()
export class TypeOrmAuditLog extends AuditLog {
  constructor(
    @InjectRepository(AuditEntryRecord) private readonly records: Repository<AuditEntryRecord>,
    private readonly statements: SqlStatements,
  ) {
    super();
  }

  /** In its turn among the process's transactions (SqlStatements.inTurn), so that none takes it in. */
  async append(entry: AuditEntry): Promise<void> {
    await this.statements.inTurn(() => this.records.insert(AuditEntryMapper.toRecord(entry)));
  }

  /**
   * Newest first by time, then by `seq` (the order of appending), on the
   * indexes (at, seq), (key_id, at, seq), (action, at, seq) and
   * (actor_id, at, seq). A page continues after the position's entry (its
   * `seq` found by its id); a position whose id names no entry continues with
   * the entries older than its time.
   */
  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    const query = this.records.createQueryBuilder('a');
    if (filter.keyId !== undefined) query.andWhere('a.key_id = :keyId', { keyId: filter.keyId });
    if (filter.action !== undefined) query.andWhere('a.action = :action', { action: filter.action });
    if (filter.actorId !== undefined) query.andWhere('a.actor_id = :actorId', { actorId: filter.actorId });
    if (filter.after !== undefined) {
      query.andWhere('(a.at, a.seq) < (:afterAt, COALESCE((SELECT p.seq FROM audit_log p WHERE p.id = :afterId), 0))', {
        afterAt: filter.after.at,
        afterId: filter.after.id,
      });
    }
    const records = await query.orderBy('a.at', 'DESC').addOrderBy('a.seq', 'DESC').limit(filter.limit).getMany();
    return records.map(AuditEntryMapper.toDomain);
  }
}
