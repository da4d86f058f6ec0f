import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Model, ModelFile, ModelRepository } from '@svc/domain';
import { IsNull, QueryFailedError, Repository } from 'typeorm';
import { ModelMapper } from '../mappers/model.mapper';
import { PreparedQuery, RecordHydrator } from '../prepared-query';
import { ModelRecord } from '../records/model.record';

/** Unique-key violations: PostgreSQL's SQLSTATE and SQLite's extended codes. */
const DUPLICATE_KEY_CODES = ['23505', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE'];

@Injectable()
export class TypeOrmModelRepository extends ModelRepository {
  private readonly modelRows: RecordHydrator<ModelRecord>;
  private reads?: { byName: PreparedQuery; all: PreparedQuery };

  constructor(@InjectRepository(ModelRecord) private readonly records: Repository<ModelRecord>) {
    super();
    this.modelRows = new RecordHydrator(records.manager.connection, ModelRecord);
  }

  /** The two reads keys make (list, one record): prepared statements, see PreparedQuery. */
  private prepared(): { byName: PreparedQuery; all: PreparedQuery } {
    if (!this.reads) {
      const columns = this.modelRows.selectList('m');
      const connection = this.records.manager.connection;
      this.reads = {
        byName: new PreparedQuery(connection, 'model_by_name', `SELECT ${columns} FROM models m WHERE m.name = ?`),
        all: new PreparedQuery(connection, 'models_all', `SELECT ${columns} FROM models m ORDER BY m.paradigm ASC, m.name ASC`),
      };
    }
    return this.reads;
  }

  async findByName(name: string): Promise<Model | null> {
    const row = await this.prepared().byName.first([name]);
    return row ? ModelMapper.toDomain(this.modelRows.hydrate(row)) : null;
  }

  async list(): Promise<Model[]> {
    return (await this.prepared().all.all([])).map((row) => ModelMapper.toDomain(this.modelRows.hydrate(row)));
  }

  async insert(model: Model): Promise<boolean> {
    try {
      await this.records.insert(ModelMapper.toRecord(model));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async updateDescription(model: Model): Promise<boolean> {
    const result = await this.records.update({ name: model.name }, ModelMapper.descriptionColumns(model));
    return (result.affected ?? 0) === 1;
  }

  async replaceFile(name: string, expected: string | null, file: ModelFile, at: Date): Promise<boolean> {
    const result = await this.records.update(
      { name, storedFile: expected === null ? IsNull() : expected },
      { storedFile: file.storedFile, checksum: file.checksum, sizeBytes: file.sizeBytes, updatedAt: at },
    );
    return (result.affected ?? 0) === 1;
  }

  /** One statement (`DELETE ... RETURNING`), so the file removed is the one the deleted row named. */
  async delete(name: string): Promise<Model | null> {
    const connection = this.records.manager.connection;
    const p = connection.options.type === 'postgres' ? '$1' : '?';
    const runner = connection.createQueryRunner();
    let rows: Array<Record<string, unknown>>;
    try {
      rows = (await runner.query(`DELETE FROM ${this.records.metadata.tableName} WHERE name = ${p} RETURNING *`, [name], true)).records ?? [];
    } finally {
      await runner.release();
    }
    const row = rows[0];
    if (!row) return null;
    const record = new ModelRecord();
    for (const column of this.records.metadata.columns) {
      (record as unknown as Record<string, unknown>)[column.propertyName] = connection.driver.prepareHydratedValue(row[column.databaseName], column);
    }
    return ModelMapper.toDomain(record);
  }
}

function isDuplicateKey(error: unknown): boolean {
  const code = (error instanceof QueryFailedError ? (error.driverError as { code?: unknown } | undefined)?.code : undefined);
  return typeof code === 'string' && DUPLICATE_KEY_CODES.includes(code);
}
