import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type NewOperator, type Operator, type OperatorChange, OperatorRepository } from '@svc/domain';
import { IsNull, Repository } from 'typeorm';
import { OperatorMapper } from '../mappers/operator.mapper';
import { OperatorRecord } from '../records/operator.record';
import { SqlStatements } from '../sql-statements';

const ENABLED_OWNERS = `role = 'owner' AND disabled_at IS NULL`;

/** Operators on every SQL database (CONTRACT 21). */
@Injectable()
export class TypeOrmOperatorRepository extends OperatorRepository {
  constructor(
    @InjectRepository(OperatorRecord) private readonly records: Repository<OperatorRecord>,
    private readonly statements: SqlStatements,
  ) {
    super();
  }

  async create(created: NewOperator): Promise<void> {
    await this.statements.inTurn(() => this.records.insert(OperatorMapper.toRecord(created.operator, created.tokenDigest)));
  }

  async findById(id: string): Promise<Operator | null> {
    const record = await this.records.findOneBy({ id });
    return record ? OperatorMapper.toDomain(record) : null;
  }

  /** On the unique index of `token_digest`. */
  async findByTokenDigest(digest: string): Promise<Operator | null> {
    const record = await this.records.findOneBy({ tokenDigest: digest });
    return record ? OperatorMapper.toDomain(record) : null;
  }

  async list(): Promise<Operator[]> {
    return (await this.records.find({ order: { createdAt: 'ASC', id: 'ASC' } })).map(OperatorMapper.toDomain);
  }

  /**
   * In one transaction. With `keepAnOwner`, the enabled owners' rows are
   * locked first by a write that changes nothing (row locks on PostgreSQL and
   * MySQL, the writer's lock on SQLite), so two owners demoting each other at
   * once are serialised: the second sees the first's change and is refused.
   */
  async update(id: string, change: OperatorChange, at: Date, keepAnOwner: boolean): Promise<Operator | 'last_owner' | null> {
    return this.statements.transaction(async (manager) => {
      const records = manager.getRepository(OperatorRecord);
      if (keepAnOwner) {
        await records
          .createQueryBuilder()
          .update()
          .set({ role: () => 'role' })
          .where(ENABLED_OWNERS)
          .execute();
        const others = await records.createQueryBuilder('o').select('o.id').where(ENABLED_OWNERS).andWhere('o.id <> :id', { id }).getMany();
        if (others.length === 0) return 'last_owner';
      }
      const record = await records.findOneBy({ id });
      if (!record) return null;
      const values: Partial<OperatorRecord> = {};
      if (change.name !== undefined) values.name = change.name;
      if (change.email !== undefined) values.email = change.email;
      if (change.role !== undefined) values.role = change.role;
      if (change.disabled !== undefined) values.disabledAt = change.disabled ? (record.disabledAt ?? at) : null;
      if (Object.keys(values).length > 0) await records.update({ id }, values);
      return OperatorMapper.toDomain(Object.assign(record, values));
    });
  }

  async replaceToken(id: string, digest: string): Promise<boolean> {
    return ((await this.statements.inTurn(() => this.records.update({ id }, { tokenDigest: digest }))).affected ?? 0) > 0;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.statements.inTurn(() =>
      this.records
        .createQueryBuilder()
        .update()
        .set({ lastUsedAt: at })
        .where('id = :id', { id })
        .andWhere('(last_used_at IS NULL OR last_used_at < :at)', { at })
        .execute(),
    );
  }

  async anyEnabled(): Promise<boolean> {
    return this.records.exists({ where: { disabledAt: IsNull() } });
  }
}
