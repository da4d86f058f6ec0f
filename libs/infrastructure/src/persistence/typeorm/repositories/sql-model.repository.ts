import { type Model, type ModelFile, ModelRepository } from '@svc/domain';
import { IsNull, QueryFailedError, type Repository } from 'typeorm';
import { ModelMapper } from '../mappers/model.mapper';
import { RecordHydrator } from '../record-hydrator';
import { type PreparedStatement, type SqlStatements } from '../sql-statements';
import { ModelRecord } from '../records/model.record';

/**
 * The registry's records on a SQL database. Reads and the portable
 * conditional updates are shared; each database's module adds what its
 * dialect says differently: which error is a taken name, and how to delete a
 * record and learn what it held in one atomic step.
 */
export abstract class SqlModelRepository extends ModelRepository {
  protected readonly modelRows: RecordHydrator<ModelRecord>;
  private reads?: { byName: PreparedStatement; all: PreparedStatement };

  constructor(
    protected readonly records: Repository<ModelRecord>,
    protected readonly statements: SqlStatements,
  ) {
    super();
    this.modelRows = new RecordHydrator(records.manager.connection, ModelRecord);
  }

  /** Whether the driver's error (TypeORM's `driverError`) is a unique-key violation. */
  protected abstract isUniqueViolation(driverError: { code?: unknown; errno?: unknown }): boolean;

  /** The two reads keys make (list, one record): prepared statements. */
  private prepared(): { byName: PreparedStatement; all: PreparedStatement } {
    if (!this.reads) {
      const columns = this.modelRows.selectList('m');
      this.reads = {
        byName: this.statements.prepare('model_by_name', `SELECT ${columns} FROM models m WHERE m.name = ?`),
        all: this.statements.prepare('models_all', `SELECT ${columns} FROM models m ORDER BY m.paradigm ASC, m.name ASC`),
      };
    }
    return this.reads;
  }

  async findByName(name: string): Promise<Model | null> {
    const row = await this.prepared().byName.first([name]);
    return row ? this.modelOf(row) : null;
  }

  async list(): Promise<Model[]> {
    return (await this.prepared().all.all([])).map((row) => this.modelOf(row));
  }

  async insert(model: Model): Promise<boolean> {
    try {
      await this.records.insert(ModelMapper.toRecord(model));
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && this.isUniqueViolation(error.driverError ?? {})) return false;
      throw error;
    }
  }

  async updateDescription(model: Model): Promise<boolean> {
    const result = await this.records.update({ name: model.name }, ModelMapper.descriptionColumns(model));
    return (result.affected ?? 0) === 1;
  }

  async updateUnstored(model: Model): Promise<boolean> {
    const result = await this.records.update({ name: model.name }, ModelMapper.unstoredColumns(model));
    return (result.affected ?? 0) === 1;
  }

  /** Portable: one UPDATE conditional on the stored file, whose affected count every driver reports. */
  async replaceFile(name: string, expected: string | null, file: ModelFile, at: Date): Promise<boolean> {
    const result = await this.records.update(
      { name, storedFile: expected === null ? IsNull() : expected },
      { storedFile: file.storedFile, checksum: file.checksum, sizeBytes: file.sizeBytes, updatedAt: at },
    );
    return (result.affected ?? 0) === 1;
  }

  /** A raw `models` row (column names as stored) as the domain's record. */
  protected modelOf(row: Record<string, unknown>): Model {
    return ModelMapper.toDomain(this.modelRows.hydrate(row));
  }
}

/**
 * For the databases that say `DELETE … RETURNING` (SQLite 3.35+, PostgreSQL):
 * one statement, so the file removed is the one the deleted row named.
 */
export abstract class ReturningDeleteModelRepository extends SqlModelRepository {
  private deletion?: PreparedStatement;

  async delete(name: string): Promise<Model | null> {
    this.deletion ??= this.statements.prepare('model_delete', 'DELETE FROM models WHERE name = ? RETURNING *');
    const row = await this.deletion.first([name]);
    return row ? this.modelOf(row) : null;
  }
}
