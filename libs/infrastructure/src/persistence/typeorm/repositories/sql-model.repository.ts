import { type Model, type ModelFile, ModelRepository, type WebhookEvent } from '@svc/domain';
import { IsNull, QueryFailedError, type Repository } from 'typeorm';
import { ModelMapper } from '../mappers/model.mapper';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { RecordHydrator } from '../record-hydrator';
import { RecordValues } from '../record-values';
import { type PreparedStatement, type SqlStatements, type WriteScript } from '../sql-statements';
import { ModelRecord } from '../records/model.record';

/** The fields of a driver's error that tell a unique-key violation (`code`; mysql2's `errno` too). */
type DriverErrorFields = { readonly code?: unknown; readonly errno?: unknown };

/**
 * The registry's records on a SQL database. Reads and the portable
 * conditional updates are shared; each database's module adds what its
 * dialect says differently: which error is a taken name, and how to delete a
 * record and learn what it held in one atomic step.
 */
export abstract class SqlModelRepository extends ModelRepository {
  protected readonly modelRows: RecordHydrator<ModelRecord>;
  protected readonly modelValues: RecordValues<ModelRecord>;
  protected readonly outbox: OutboxWrites;
  private reads?: { byName: PreparedStatement; all: PreparedStatement };

  constructor(
    protected readonly records: Repository<ModelRecord>,
    protected readonly statements: SqlStatements,
    protected readonly bell: OutboxBell,
  ) {
    super();
    this.modelRows = new RecordHydrator(records.manager.connection, ModelRecord);
    this.modelValues = new RecordValues(records.manager.connection, ModelRecord);
    this.outbox = new OutboxWrites(records.manager.connection, statements);
  }

  /** Whether the driver's error (TypeORM's `driverError`) is a unique-key violation. */
  protected abstract isUniqueViolation(driverError: DriverErrorFields): boolean;

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

  async insert(model: Model, events: readonly WebhookEvent[] = []): Promise<boolean> {
    try {
      if (events.length === 0) {
        await this.records.insert(ModelMapper.toRecord(model));
        return true;
      }
      const values = this.modelValues;
      return await this.withEvents(events, function* () {
        yield { sql: values.insertSql(), params: values.of(ModelMapper.toRecord(model)) };
        return true;
      });
    } catch (error) {
      const driverError: DriverErrorFields =
        error instanceof QueryFailedError
          ? ((error as QueryFailedError<Error & DriverErrorFields>).driverError ?? {})
          : (error as DriverErrorFields);
      if (this.isUniqueViolation(driverError)) return false;
      throw error;
    }
  }

  async updateDescription(model: Model): Promise<boolean> {
    const result = await this.records.update({ name: model.name }, ModelMapper.descriptionColumns(model));
    return (result.affected ?? 0) === 1;
  }

  async updateUnstored(model: Model, events: readonly WebhookEvent[] = []): Promise<boolean> {
    if (events.length > 0) {
      const set = this.modelValues.assignments(ModelMapper.unstoredColumns(model));
      return this.withEvents(events, function* () {
        return (yield { sql: `UPDATE models SET ${set.sql} WHERE name = ?`, params: [...set.params, model.name] }) === 1;
      });
    }
    const result = await this.records.update({ name: model.name }, ModelMapper.unstoredColumns(model));
    return (result.affected ?? 0) === 1;
  }

  /** Portable: one UPDATE conditional on the stored file, whose affected count every driver reports. */
  async replaceFile(
    name: string,
    expected: string | null,
    file: ModelFile,
    at: Date,
    events: readonly WebhookEvent[] = [],
  ): Promise<boolean> {
    const columns = { storedFile: file.storedFile, checksum: file.checksum, sizeBytes: file.sizeBytes, updatedAt: at };
    if (events.length > 0) {
      const set = this.modelValues.assignments(columns);
      const condition = expected === null ? 'stored_file IS NULL' : 'stored_file = ?';
      const params = [...set.params, name, ...(expected === null ? [] : [expected])];
      return this.withEvents(events, function* () {
        return (yield { sql: `UPDATE models SET ${set.sql} WHERE name = ? AND ${condition}`, params }) === 1;
      });
    }
    const result = await this.records.update({ name, storedFile: expected === null ? IsNull() : expected }, columns);
    return (result.affected ?? 0) === 1;
  }

  /** A change's writes and its webhook events in one transaction, the events only when the change happened; the bell rung once committed. */
  protected async withEvents(events: readonly WebhookEvent[], change: () => WriteScript<boolean>): Promise<boolean> {
    const outbox = this.outbox;
    const changed = await this.statements.writeTogether(function* () {
      if (!(yield* change())) return false;
      yield* outbox.events(events);
      return true;
    });
    if (changed) this.bell.ring();
    return changed;
  }

  /** A raw `models` row (column names as stored) as the domain's record. */
  protected modelOf(row: Record<string, unknown>): Model {
    return ModelMapper.toDomain(this.modelRows.hydrate(row));
  }
}

/**
 * For the databases that say `DELETE … RETURNING` (SQLite 3.35+, PostgreSQL):
 * one statement, so the file removed is the one the deleted row named. With
 * events, the database's own transaction runs it and then records them (deleteRecording).
 */
export abstract class ReturningDeleteModelRepository extends SqlModelRepository {
  protected static readonly DELETE_RETURNING = 'DELETE FROM models WHERE name = ? RETURNING *';
  private deletion?: PreparedStatement;

  async delete(name: string, eventsOf?: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null> {
    if (eventsOf) {
      const deleted = await this.deleteRecording(name, eventsOf);
      if (deleted) this.bell.ring();
      return deleted;
    }
    this.deletion ??= this.statements.prepare('model_delete', ReturningDeleteModelRepository.DELETE_RETURNING);
    const row = await this.deletion.first([name]);
    return row ? this.modelOf(row) : null;
  }

  /** DELETE_RETURNING and the events of the deleted record (outbox.events) in one transaction. */
  protected abstract deleteRecording(name: string, eventsOf: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null>;
}
